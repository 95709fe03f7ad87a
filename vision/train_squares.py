"""Train the square reader's network on rendered boards and write it as ONNX (training only).

    pip install 'poolboard[train]'
    python -m vision.train_squares    # as the shipped model: 3,500 renders, 6 epochs, seed 31

The network sees one square's window (:mod:`vision.patches`) and says whether it is empty or
holds a man or a king, whatever the set's colours; its last hidden layer (the embedding) is
what a calibration adapts to one board (:mod:`vision.squares`). Everything it learns from is
rendered (:mod:`vision.renders`): no photo is ever used, so the labelled real photos stay a
fair judge. The same seed and counts give the same data; the metadata file beside the model
says what it was trained on and by which revision of this script and the renderer (a later
one trains another network from the same command). torch is needed here only, never by the
service.
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import torch
from torch import nn

from vision.patches import PATCH_PX
from vision.renders import KINDS, boards

EMBEDDING = 32


class SquareNet(nn.Module):
    """Three blocks of two 3x3 convolutions, global average pooling, then the kinds."""

    def __init__(self) -> None:
        super().__init__()

        def block(inputs: int, outputs: int) -> list[nn.Module]:
            return [
                nn.Conv2d(inputs, outputs, 3, padding=1, bias=False),
                nn.BatchNorm2d(outputs),
                nn.ReLU(),
                nn.Conv2d(outputs, outputs, 3, padding=1, bias=False),
                nn.BatchNorm2d(outputs),
                nn.ReLU(),
                nn.MaxPool2d(2),
            ]

        self.features = nn.Sequential(*block(3, 16), *block(16, 24), *block(24, 32))
        self.embed = nn.Sequential(nn.Flatten(), nn.Linear(32 * (PATCH_PX // 8) ** 2, EMBEDDING))
        self.classify = nn.Sequential(nn.ReLU(), nn.Linear(EMBEDDING, len(KINDS)))

    def forward(self, patches: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        embedding = self.embed(self.features(patches - 0.5))
        return self.classify(embedding), embedding


def render_set(seed: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    """``count`` renders' windows (n, 3, P, P) float16 and kinds (n,)."""
    patches, kinds = [], []
    for board in boards(seed, count):
        patches.append(board.patches.transpose(0, 3, 1, 2).astype(np.float16))
        kinds.append(board.kinds)
    return np.concatenate(patches), np.concatenate(kinds)


def _augment(batch: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """Another camera, light and set: exposure, white balance, a washed-out picture (its black
    lifted toward a haze), colours faded or swapped between channels (a piece is a piece
    whatever its colours), noise, mirror, a pixel or two off."""
    n = batch.shape[0]

    def chance(p: float) -> torch.Tensor:
        return (torch.rand(n, 1, 1, 1, generator=generator) < p).float()

    swapped = batch[:, torch.randperm(3, generator=generator)]
    swap = chance(0.5)
    batch = swap * swapped + (1 - swap) * batch
    grey = batch.mean(dim=1, keepdim=True)
    fade = chance(0.25) * torch.rand(n, 1, 1, 1, generator=generator) * 0.8
    batch = batch + fade * (grey - batch)
    haze = chance(0.3) * torch.rand(n, 1, 1, 1, generator=generator) * 0.55
    level = torch.empty(n, 1, 1, 1).uniform_(0.8, 1.6, generator=generator)
    batch = ((1 - haze) * batch + haze * level) / ((1 - haze) + haze * level)
    gain = torch.exp(torch.empty(n, 1, 1, 1).uniform_(-0.35, 0.35, generator=generator))
    balance = torch.exp(torch.empty(n, 3, 1, 1).uniform_(-0.12, 0.12, generator=generator))
    batch = batch * gain * balance
    batch = batch + torch.randn(batch.shape, generator=generator) * 0.03
    flip = torch.rand(n, generator=generator) < 0.5
    batch[flip] = batch[flip].flip(-1)
    dx, dy = (int(v) for v in torch.randint(-2, 3, (2,), generator=generator))
    batch = torch.roll(batch, shifts=(dy, dx), dims=(2, 3))
    return batch.clamp(0.0, 2.0)


def from_onnx(path: Path) -> SquareNet:
    """A network holding the weights of a model this script wrote (its batch normalisation
    folded into the convolutions on export: each becomes a fixed shift, kept as it is)."""
    import onnx
    from onnx import numpy_helper

    weights = {i.name: numpy_helper.to_array(i) for i in onnx.load(str(path)).graph.initializer}
    net = SquareNet()
    convolutions = [m for m in net.features if isinstance(m, nn.Conv2d)]
    norms = [m for m in net.features if isinstance(m, nn.BatchNorm2d)]
    folded = [w for name, w in weights.items() if name.startswith("onnx::Conv")]
    with torch.no_grad():
        for convolution, norm, weight, bias in zip(
            convolutions, norms, folded[0::2], folded[1::2], strict=True
        ):
            convolution.weight.copy_(torch.tensor(weight))
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.tensor(bias))
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
        for layer, name in ((net.embed[1], "embed.1"), (net.classify[1], "classify.1")):
            layer.weight.copy_(torch.tensor(weights[f"{name}.weight"]))
            layer.bias.copy_(torch.tensor(weights[f"{name}.bias"]))
    return net


def train(
    patches: np.ndarray, kinds: np.ndarray, epochs: int, seed: int, start: Path | None = None
) -> tuple[SquareNet, list[float]]:
    """The network fitted to the windows (from ``start``'s weights, its shifts kept, if
    given); the mean loss of each epoch."""
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    net = SquareNet() if start is None else from_onnx(start)
    rate = 3e-3 if start is None else 1e-3
    optimiser = torch.optim.AdamW(net.parameters(), lr=rate, weight_decay=1e-4)
    steps = epochs * (len(patches) // 256)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, rate, total_steps=steps)
    counts = np.bincount(kinds, minlength=len(KINDS)).astype(np.float32)
    weights = torch.tensor(counts.sum() / (len(KINDS) * np.maximum(counts, 1)))
    loss_of = nn.CrossEntropyLoss(weight=weights)
    data, labels = torch.from_numpy(patches), torch.from_numpy(kinds.astype(np.int64))
    losses = []
    for _ in range(epochs):
        net.train()
        if start is not None:  # the folded shifts stay fixed
            for norm in net.features:
                if isinstance(norm, nn.BatchNorm2d):
                    norm.eval()
        order = torch.randperm(len(data), generator=generator)
        total = 0.0
        for first in range(0, len(order) - 255, 256):
            index = order[first : first + 256]
            batch = _augment(data[index].float(), generator)
            logits, _ = net(batch)
            loss = loss_of(logits, labels[index])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach())
        losses.append(total / (len(order) // 256))
        print(f"epoch {len(losses)}: loss {losses[-1]:.4f}", flush=True)
    return net.eval(), losses


def accuracy(net: SquareNet, patches: np.ndarray, kinds: np.ndarray) -> float:
    """The share of windows whose kind the network names right."""
    with torch.no_grad():
        right = 0
        for start in range(0, len(patches), 1024):
            logits, _ = net(torch.from_numpy(patches[start : start + 1024]).float())
            right += int((logits.argmax(1).numpy() == kinds[start : start + 1024]).sum())
    return right / len(patches)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=3500, help="rendered boards to learn from")
    parser.add_argument("--checks", type=int, default=300, help="other renders to check on")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--out", type=Path, default=Path("vision/models/squares.onnx"))
    parser.add_argument(
        "--start", type=Path, help="go on from this model's weights (one this script wrote)"
    )
    args = parser.parse_args(argv)
    torch.set_num_threads(2)
    started = time.time()
    patches, kinds = render_set(args.seed, args.renders)
    check_patches, check_kinds = render_set(args.seed + 1, args.checks)
    print(
        f"rendered {len(patches)} + {len(check_patches)} windows in {time.time() - started:.0f} s"
    )
    net, losses = train(patches, kinds, args.epochs, args.seed, args.start)
    checked = accuracy(net, check_patches, check_kinds)
    print(f"kinds right on other renders: {checked:.4%}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    example = torch.zeros(1, 3, PATCH_PX, PATCH_PX)
    torch.onnx.export(
        net, (example,), str(args.out), input_names=["patches"],
        output_names=["kinds", "embedding"], dynamic_axes={"patches": {0: "n"}},
        opset_version=13, dynamo=False,
    )  # fmt: skip
    earlier: dict[str, str] = {}
    if args.start is not None:  # the model gone on from, as its own metadata says
        before = json.loads(args.start.with_suffix(".json").read_text())
        earlier = {
            "trained_on": f"{before['trained_on']}; then ",
            "command": f"{before['command']} --out {args.start.name}; then ",
        }
    metadata = {
        "what": "poolboard square reader: one dark square's window -> empty, man or king",
        "inputs": f"(n, 3, {PATCH_PX}, {PATCH_PX}) BGR windows in light-square units (0-2)",
        "outputs": {"kinds": list(KINDS), "embedding": EMBEDDING},
        "trained_on": earlier.get("trained_on", "")
        + (
            f"{args.renders} boards rendered by vision/synthetic.py (seed {args.seed}), "
            f"{len(patches)} windows; no photographs"
        ),
        "command": earlier.get("command", "") + f"python -m vision.train_squares "
        f"--renders {args.renders} --epochs {args.epochs} --seed {args.seed}"
        + ("" if args.start is None else f" --start {args.start.name}"),
        "epochs": args.epochs,
        "losses": [round(v, 4) for v in losses],
        "checked_on": f"{args.checks} other renders (seed {args.seed + 1}): "
        f"{checked:.4%} of kinds right",
        "torch": torch.__version__,
        "trained": datetime.now(UTC).strftime("%Y-%m-%d"),
    }
    args.out.with_suffix(".json").write_text(json.dumps(metadata, indent=1) + "\n")
    print(f"wrote {args.out} in {time.time() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
