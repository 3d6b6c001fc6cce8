"""The party network: MQTT between the table units and the head unit (see DESIGN.md)."""
