"""Training of the learned dice reader (PyTorch, the `train` extra): `python -m vision.training.train`."""
