"""Humble Scribe: the command line, storage, and the runner that joins mail, engine and outputs."""
