"""relax.frontend: importers of models from other frameworks (torch)."""
