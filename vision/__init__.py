"""Frames in, dice values out. Knows nothing of Bunco (nor of `appliance`)."""
