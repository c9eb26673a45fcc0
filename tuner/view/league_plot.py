"""A league's pairwise win rates as a heatmap picture (PNG), best bots first."""
from __future__ import annotations

from pathlib import Path

import numpy as np


def plot_win_rates(matrix, path: Path, title: str) -> None:
    """Write `matrix` (a pandas DataFrame: win rate of the row's bot against the column's bot) as a heatmap."""
    # matplotlib takes a second or more to import and only this picture needs it: imported here, when --plot is
    # given, never by `tuner league` without it. Agg draws to a file, with no display.
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = len(matrix)
    size = max(4.0, 0.9 * n + 2.5)
    figure, axes = plt.subplots(figsize=(size + 1.5, size))
    values = matrix.to_numpy(dtype=float)
    image = axes.imshow(np.ma.masked_invalid(values), cmap="RdBu", vmin=0.0, vmax=1.0)
    labels = [f"{k}. {name}" if len(name) <= 40 else f"{k}. {name[:37]}..." for k, name in enumerate(matrix.index, 1)]
    axes.set_xticks(range(n), [str(k) for k in range(1, n + 1)])
    axes.set_yticks(range(n), labels)
    axes.set_xlabel("opponent (rank)")
    axes.set_title(title)
    for i in range(n):
        for j in range(n):
            if not np.isnan(values[i, j]):
                axes.text(j, i, f"{values[i, j]:.0%}", ha="center", va="center", fontsize=9,
                          color="white" if abs(values[i, j] - 0.5) > 0.3 else "black")
    figure.colorbar(image, ax=axes, label="win rate of the row's bot (draws 1/2)")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
