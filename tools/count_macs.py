#!/usr/bin/env python3
"""Count the multiply-accumulates (MACs) of one forward pass of an ONNX network, exactly.

Why: a speed estimate for hardware we do not have (a Raspberry Pi 4) scales a measured time by
compute; the compute must be counted, not guessed. Only the layers that multiply and add count
(Conv, ConvTranspose, Gemm, MatMul); ReLU, pooling, resize, add and BatchNorm are left out, as
published MAC figures (MobileNet's 569 M, ResNet-50's 4.1 G) leave them out. The shapes come from
ONNX's own shape inference, so the count follows the graph as shipped.

    python tools/count_macs.py vision/models/finder/finder.onnx [--layers]

Needs the `onnx` package (tested with onnx==1.23.2).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from math import prod

import onnx
from onnx import numpy_helper, shape_inference


@dataclass(frozen=True)
class LayerMacs:
    name: str
    op: str
    macs: int


def with_input(model: onnx.ModelProto, shape: tuple[int, ...]) -> onnx.ModelProto:
    """A copy of a one-input model whose input is declared `shape` (a fully convolutional net
    run at another size, e.g. the finder on a trimmed 256x192 letterbox)."""
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    dims = copy.graph.input[0].type.tensor_type.shape.dim
    for dim, size in zip(dims, shape, strict=True):
        dim.Clear()
        dim.dim_value = size
    del copy.graph.value_info[:]  # stale intermediate shapes; inferred again
    for out in copy.graph.output:
        out.type.tensor_type.ClearField("shape")
    return copy


def _shapes(model: onnx.ModelProto) -> dict[str, list[int]]:
    """Every tensor's static shape: graph inputs, initializers and inferred intermediates."""
    inferred = shape_inference.infer_shapes(model, strict_mode=True)
    graph = inferred.graph
    shapes: dict[str, list[int]] = {}
    for info in [*graph.input, *graph.value_info, *graph.output]:
        dims = info.type.tensor_type.shape.dim
        if dims and all(d.HasField("dim_value") for d in dims):
            shapes[info.name] = [d.dim_value for d in dims]
    for init in graph.initializer:
        shapes[init.name] = list(init.dims)
    return shapes


def _attr(node: onnx.NodeProto, name: str, default):
    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


def layer_macs(model: onnx.ModelProto, shape: tuple[int, ...] | None = None) -> list[LayerMacs]:
    """MACs of each multiplying layer, in graph order, at the input shape the graph declares or `shape`."""
    shapes = _shapes(model if shape is None else with_input(model, shape))
    out: list[LayerMacs] = []
    for node in model.graph.node:
        if node.op_type in ("Conv", "ConvTranspose"):
            weight = shapes[node.input[1]]  # Conv: (Cout, Cin/groups, kh, kw)
            if node.op_type == "Conv":
                per_output = prod(weight[1:])
                outputs = prod(shapes[node.output[0]])
            else:  # ConvTranspose: (Cin, Cout/groups, kh, kw); each input element scatters a kernel
                per_output = prod(weight[1:])
                outputs = prod(shapes[node.input[0]])
            macs = per_output * outputs
        elif node.op_type == "Gemm":
            a, b = shapes[node.input[0]], shapes[node.input[1]]
            m, k = (a[1], a[0]) if _attr(node, "transA", 0) else (a[0], a[1])
            n = b[0] if _attr(node, "transB", 0) else b[1]
            macs = m * k * n
        elif node.op_type == "MatMul":
            a, y = shapes[node.input[0]], shapes[node.output[0]]
            macs = prod(y) * a[-1]
        else:
            continue
        out.append(LayerMacs(node.name or node.output[0], node.op_type, macs))
    return out


def total_macs(model: onnx.ModelProto, shape: tuple[int, ...] | None = None) -> int:
    return sum(layer.macs for layer in layer_macs(model, shape))


def parameters(model: onnx.ModelProto) -> int:
    """Weights stored in the graph (BatchNorm folded or not, as exported)."""
    return sum(numpy_helper.to_array(t).size for t in model.graph.initializer)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("onnx", nargs="+", help="ONNX files")
    parser.add_argument("--layers", action="store_true", help="print each multiplying layer")
    parser.add_argument("--input", help="run the net at this input shape instead, e.g. 1x3x192x256")
    args = parser.parse_args(argv)
    for path in args.onnx:
        try:
            model = onnx.load(path)
        except Exception as exc:  # noqa: BLE001 (any unreadable file: one line, no traceback)
            print(f"count_macs: cannot read {path}: {exc}", file=sys.stderr)
            return 2
        shape = tuple(int(d) for d in args.input.split("x")) if args.input else None
        layers = layer_macs(model, shape)
        if args.layers:
            for layer in layers:
                print(f"  {layer.op:14s} {layer.macs:>13,d}  {layer.name}")
        print(f"{path}: {sum(l.macs for l in layers):,d} MACs, {parameters(model):,d} parameters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
