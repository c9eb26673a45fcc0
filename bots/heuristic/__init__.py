"""The parameterised `heuristic` bot: its schema (`schema`), compiled policy (`policy`) and builder (`bot`)."""
