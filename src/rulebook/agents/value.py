"""A learned value: a small multilayer perceptron in NumPy, from a seat's observation tensor to
that seat's expected final margin (its score minus the best other seat's; a solo seat's share of
the win).

It reads only the observation tensor of :mod:`rulebook.core.spaces` (what the seat may see), so
it can never judge a position by what the seat does not know. Inference is a few matrix
products on the CPU: the search asks it for every seat at every leaf, all seats in one batch.

:func:`fit` trains one from arrays (Adam on the mean squared error, a held-out part of the games
for the validation loss, the epoch with the best validation loss kept). A :class:`ValueNet` is
saved as one ``.npz`` file (``float16`` weights: the file stays small, the values lose nothing
the search can tell) with its metadata: the configuration it was trained for and the size of
the observation, so a file trained for another encoder is refused with the reason.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from rulebook.core.errors import RulebookError

Array = npt.NDArray[np.float32]

#: the hidden layers' widths
HIDDEN = (64, 32)
#: the least spread a feature is divided by (the tensors are mostly within [0, 1])
MIN_STD = 0.2


@dataclass
class ValueNet:
    """``value(x) = W2 relu(W1 relu(W0 (x - mean) / std + b0) + b1) + b2``, in units of
    ``scale`` points (the spread of the margins it learned from)."""

    weights: list[Array]
    biases: list[Array]
    mean: Array
    std: Array
    scale: float
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def inputs(self) -> int:
        return int(self.weights[0].shape[0])

    def values(self, x: Array) -> Array:
        """The predicted margins (in points) of a batch of observation tensors ``(n, inputs)``."""
        h = (x - self.mean) / self.std
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0.0, out=h)
        return h[:, 0] * self.scale

    # -- files --------------------------------------------------------------------------------
    def save(self, path: Path) -> None:
        arrays: dict[str, Any] = {"mean": self.mean, "std": self.std}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"] = w.astype(np.float16)
            arrays[f"b{i}"] = b.astype(np.float16)
        meta = {**self.meta, "scale": self.scale, "layers": len(self.weights)}
        arrays["meta"] = np.frombuffer(json.dumps(meta, sort_keys=True).encode(), np.uint8)
        with path.open("wb") as out:
            np.savez_compressed(out, **arrays)

    @classmethod
    def load(cls, path: Path) -> ValueNet:
        """The net saved at ``path``; :class:`RulebookError` saying why if it cannot be read."""
        try:
            with np.load(path) as data:
                meta = json.loads(bytes(data["meta"]).decode())
                layers = int(meta["layers"])
                weights = [data[f"w{i}"].astype(np.float32) for i in range(layers)]
                biases = [data[f"b{i}"].astype(np.float32) for i in range(layers)]
                mean = data["mean"].astype(np.float32)
                std = data["std"].astype(np.float32)
        except (OSError, KeyError, ValueError, TypeError) as error:
            raise RulebookError(f"cannot read the value weights {path}: {error}") from None
        scale = float(meta.pop("scale"))
        meta.pop("layers")
        return cls(weights, biases, mean, std, scale, meta)


@dataclass(frozen=True)
class Fitted:
    """A trained net and how its training went: the loss per epoch on the training rows and on
    the held-out games (mean squared error in units of ``scale``)."""

    net: ValueNet
    train_loss: list[float]
    validation_loss: list[float]
    #: the epoch whose net was kept (0: none beat the net it started from)
    best_epoch: int
    #: the kept net's loss on the held-out games
    best_validation: float


def fit(
    x: Array,
    y: Array,
    groups: npt.NDArray[np.int64],
    seed: int,
    epochs: int = 8,
    batch: int = 512,
    rate: float = 3e-4,
    decay: float = 1e-2,
    held_out: float = 0.1,
    hidden: Sequence[int] = HIDDEN,
    start: ValueNet | None = None,
    meta: Mapping[str, Any] | None = None,
    progress: Callable[[int, float, float], Any] | None = None,
) -> Fitted:
    """Train a net on observation rows ``x`` and margins ``y`` (points); the games ``groups``
    (one id per row) are split whole between training and validation (``held_out`` of them
    held out), so the validation loss is on positions of games never trained on. ``start``: a
    net to go on training (its normalisation and scale kept). Seeded: the same arrays and seed
    give the same net. ``decay``: each step shrinks the weights by ``rate * decay`` of
    themselves (AdamW's decoupled weight decay: positions of one game share one outcome, and
    an unchecked net learns to tell the games apart instead of judging positions).
    ``progress(epoch, train_loss, validation_loss)`` after each epoch."""
    if len(x) != len(y) or len(x) != len(groups):
        raise RulebookError("fit: one margin and one game per observation row")
    rng = np.random.default_rng(seed)
    games = np.unique(groups)
    if len(games) < 2:
        raise RulebookError("fit needs positions of at least 2 games (one is held out)")
    shuffled = rng.permutation(games)
    cut = max(1, round(len(games) * held_out))
    validation = np.isin(groups, shuffled[:cut])
    xt, yt, xv, yv = x[~validation], y[~validation], x[validation], y[validation]
    if start is None:
        mean = xt.mean(axis=0).astype(np.float32)
        # a feature (nearly) constant in training is not blown up where it moves later
        std = np.maximum(xt.std(axis=0), MIN_STD).astype(np.float32)
        scale = max(float(np.std(yt)), 1e-6)
        sizes = [x.shape[1], *hidden, 1]
        weights = [
            (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
            for a, b in itertools.pairwise(sizes)
        ]
        biases = [np.zeros(b, np.float32) for b in sizes[1:]]
        net = ValueNet(weights, biases, mean, std, scale, dict(meta or {}))
    else:
        net = ValueNet(
            [w.copy() for w in start.weights],
            [b.copy() for b in start.biases],
            start.mean,
            start.std,
            start.scale,
            dict(meta or start.meta),
        )
    zt = ((xt - net.mean) / net.std).astype(np.float32)
    zv = ((xv - net.mean) / net.std).astype(np.float32)
    tt = (yt / net.scale).astype(np.float32)
    tv = (yv / net.scale).astype(np.float32)
    params = [*net.weights, *net.biases]
    layers = len(net.weights)
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    step = 0
    best = (_loss(net, zv, tv), [p.copy() for p in params], 0)
    train_curve: list[float] = []
    validation_curve: list[float] = []
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(zt))
        total = 0.0
        for i in range(0, len(order), batch):
            rows = order[i : i + batch]
            loss, grads = _gradients(net, zt[rows], tt[rows])
            total += loss * len(rows)
            step += 1
            for i, (p, g, m, v) in enumerate(zip(params, grads, moments, squares, strict=True)):
                if i < layers:  # the weights, not the biases
                    p *= 1.0 - rate * decay
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                p -= rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        train_curve.append(total / max(1, len(zt)))
        validation_curve.append(_loss(net, zv, tv))
        if progress is not None:
            progress(epoch, train_curve[-1], validation_curve[-1])
        if validation_curve[-1] < best[0]:
            best = (validation_curve[-1], [p.copy() for p in params], epoch)
    kept = best[1]
    net.weights, net.biases = kept[:layers], kept[layers:]
    return Fitted(net, train_curve, validation_curve, best[2], best[0])


def _forward(net: ValueNet, z: Array) -> list[Array]:
    """Each layer's output for normalised rows ``z`` (after ReLU but the last)."""
    outs = [z]
    last = len(net.weights) - 1
    for i, (w, b) in enumerate(zip(net.weights, net.biases, strict=True)):
        h = outs[-1] @ w + b
        outs.append(np.maximum(h, 0.0) if i < last else h)
    return outs


def _loss(net: ValueNet, z: Array, t: Array) -> float:
    if not len(z):
        return float("nan")
    return float(np.mean((_forward(net, z)[-1][:, 0] - t) ** 2))


def _gradients(net: ValueNet, z: Array, t: Array) -> tuple[float, list[Array]]:
    """The batch's mean squared error and its gradient for every weight, then every bias."""
    outs = _forward(net, z)
    error = outs[-1][:, 0] - t
    delta = (2.0 / len(z)) * error[:, None]
    dw: list[Array] = []
    db: list[Array] = []
    for i in range(len(net.weights) - 1, -1, -1):
        dw.append(outs[i].T @ delta)
        db.append(delta.sum(axis=0))
        if i:
            delta = (delta @ net.weights[i].T) * (outs[i] > 0)
    return float(np.mean(error**2)), [*dw[::-1], *db[::-1]]
