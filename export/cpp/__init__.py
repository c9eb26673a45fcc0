"""The C++ back end of the export: the walked program as C++17 (`emit`) with the types Numba infers
(`inferred_types`) and long tables packed (`table_pack`), the hand-written `runtime`, and the file (`bot_file`)."""
