"""The bots, one job per folder:

    contract/   what a bot plug-in declares and how it is named, seated and given parameters
    shared/     compiled helpers the policies share
    <name>/     one folder per bot: its compiled policy, its parameter schema and its `PLUGIN`
    running/    the compiled dispatch to the policies, the arena's batches, referee players, the staged compile
    registry.py the registered bots (one line each)
    examples/   example bot programs to tune, and tuned/, where exported bots go (neither is a package)

Each layer imports only those above it in this list (the registry sits with the contract);
`tests/project/test_layers.py` checks it. Exporting a bot as a standalone file is the `export` package's job.
"""
