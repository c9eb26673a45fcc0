"""The Python back end of the export: the walked program as plain Python (`emit`) and the file around it
(`bot_file`)."""
