"""One module per command-line command; see game/__main__.py."""
