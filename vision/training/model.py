"""The two small networks of the learned dice reader, built from layers OpenCV's DNN module runs
(Conv, BatchNorm, ReLU, MaxPool, nearest Upsample, Sigmoid, global average pool).

FaceNet reads one 32x32 die crop: 7 logits, values 1-6 and "not a readable die".
FinderNet finds dice in a letterboxed 256x256 frame: a stride-4 heat map of die centres and a
map of the die's side / 64 and the centre's offset within its cell (CenterNet's three heads).
"""

from __future__ import annotations

import torch
from torch import nn


def conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class FaceNet(nn.Module):
    """VGG-style: 32 -> 16 -> 8 -> 4, then global average pool and a 1x1 classifier (~360k params:
    the 190k-parameter version of the same shape fitted only 93 % of rune55-trays' training dice;
    48- and 64-px crops through a stride-2 first conv read no better, see the face model card)."""

    def __init__(self, classes: int = 7) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv(3, 32), conv(32, 48), nn.MaxPool2d(2),
            conv(48, 64), conv(64, 96), nn.MaxPool2d(2),
            conv(96, 128), conv(128, 128), nn.MaxPool2d(2),
        )
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Conv2d(128, classes, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.pool(self.features(x))).flatten(1)


class FinderNet(nn.Module):
    """A small U: stride 2, 4, 8, 16 encoder, nearest upsampling back to stride 4 with skip sums,
    three 1x1 heads: heat logit, side/64, and the centre's (dx, dy) within its 4-pixel cell, so a
    crop is centred on the die and not on the cell (~72k params)."""

    def __init__(self) -> None:
        super().__init__()
        self.s2 = conv(3, 12, 2)
        self.s4 = nn.Sequential(conv(12, 20, 2), conv(20, 20))
        self.s8 = nn.Sequential(conv(20, 32, 2), conv(32, 32))
        self.s16 = nn.Sequential(conv(32, 48, 2), conv(48, 48))
        self.up16 = nn.Sequential(nn.Conv2d(48, 32, 1, bias=False), nn.BatchNorm2d(32))
        self.up8 = nn.Sequential(nn.Conv2d(32, 20, 1, bias=False), nn.BatchNorm2d(20))
        self.mix8 = conv(32, 32)
        self.mix4 = conv(20, 24)
        self.heat = nn.Conv2d(24, 1, 1)
        self.size = nn.Conv2d(24, 1, 1)
        self.offset = nn.Conv2d(24, 2, 1)
        self.upsample = nn.Upsample(scale_factor=2, mode="nearest")
        nn.init.constant_(self.heat.bias, -4.0)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        f4 = self.s4(self.s2(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        m8 = self.mix8(torch.relu(f8 + self.upsample(self.up16(f16))))
        m4 = self.mix4(torch.relu(f4 + self.upsample(self.up8(m8))))
        return self.heat(m4), self.size(m4), self.offset(m4)


class FinderExport(nn.Module):
    """The finder as shipped: sigmoid applied to the heat map."""

    def __init__(self, net: FinderNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        heat, size, offset = self.net(x)
        return torch.sigmoid(heat), size, offset


def parameters(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())
