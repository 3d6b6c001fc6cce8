"""The face network: which face a die shows (face.py, README.md, face.onnx)."""
