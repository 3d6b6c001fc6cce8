"""The hostess's page: served by the head unit on the party's network (aiohttp, no build step)."""
