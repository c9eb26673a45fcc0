"""`tuner league`: every pair of bots on common seeds, games kept in SQLite and resumable (`league`), and the
Bradley-Terry ratings with their intervals (`ratings`). The package imports none of them."""
