"""The Bunco appliance: the game, the table and head units, the screen, the network, storage.

`appliance` uses `vision` and `hardware`; they never import it.
"""
