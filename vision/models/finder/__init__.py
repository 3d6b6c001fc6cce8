"""The finder network: where the dice are in a frame (finder.py, README.md, finder.onnx)."""
