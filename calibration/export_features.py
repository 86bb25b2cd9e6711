"""Cut a face network after its last hidden layer: the result maps a die crop to the
features a dice profile's own small classifier is taught on (``companion calibrate dice``).

    python calibration/export_features.py companion/vision/models/d6_faces.onnx

writes ``companion/vision/models/d6_faces.features.onnx`` (needs the ``onnx`` package, which
reading does not).
"""

from __future__ import annotations

import sys
from pathlib import Path


def export(model: Path) -> Path:
    import onnx
    from onnx import helper, utils

    graph = onnx.load(str(model)).graph
    last = graph.node[-1]
    if last.op_type != "Gemm":
        raise SystemExit(f"{model}: expected the network to end in a Gemm (linear) layer")
    out = model.with_suffix(".features.onnx")
    utils.extract_model(str(model), str(out), [graph.input[0].name], [last.input[0]])
    m = onnx.load(str(out))
    m.graph.output[0].name = "features"
    for node in m.graph.node:
        node.output[:] = ["features" if o == last.input[0] else o for o in node.output]
    m.producer_name = helper.make_model(helper.make_graph([], "x", [], [])).producer_name
    onnx.save(m, str(out))
    return out


def main(argv: list[str]) -> int:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="*", default=["companion/vision/models/d6_faces.onnx"],
                    help="face networks (.onnx) to cut; each gives NAME.features.onnx")
    args = ap.parse_args(argv)
    for arg in args.models:
        model = Path(arg)
        if not model.is_file():
            raise SystemExit(f"{model}: no such face network (an .onnx file written by "
                             "calibration/train_face_model.py)")
        print("wrote", export(model))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
