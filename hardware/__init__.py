"""gpiozero devices of a table: the BUNCO! button, the bell, the lights. Knows nothing of the rules."""
