#!/usr/bin/env python3
"""Cuts a failing random scene (tools/random-trees.sh, RandomTreeTests) down to a small reproducer.

    tools/reduce-scene.py SCENE.json --backend gles --match 'Index out of range' [--site GLESRenderer.swift:274]
    tools/reduce-scene.py SCENE.json --parity
    tools/reduce-scene.py SCENE.json --invisible --backend cpu

Greedy delta debugging on the JSON tree: removes layers, masks and keys, hoists a sublayer into its parent's
place and rounds numbers, keeping each change after which the scene still fails the same way. A failure is
a render on --backend whose output (exit status and messages) matches --match (a regular expression; with
--site, also a backtrace frame, which makes each try slower), or with --parity, a CPU/GLES pair outside the
parity bound, or with --invisible, a render on --backend that changes when the layers that paint nothing
(hidden, opacity 0, an empty or hidden mask; RandomScenes+Invisible.swift) are removed. Writes SCENE.reduced.json next to the scene (so its images still resolve) and prints it.
"""
import argparse, json, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAMINA = os.path.join(ROOT, ".build", "debug", "lamina")


def render(path, backend, out, backtrace):
    env = dict(os.environ, SWIFT_BACKTRACE="enable=%s,interactive=no,color=no" % ("yes" if backtrace else "no"))
    try:
        done = subprocess.run([LAMINA, "render", path, "--backend", backend, "-o", out], env=env,
                              capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "timeout", 124
    return "exit %d\n%s" % (done.returncode, done.stdout + done.stderr), done.returncode


NON_PAINTING = {
    "name", "frame", "bounds", "position", "anchorPoint", "zPosition", "transform", "affineTransform",
    "sublayerTransform", "opacity", "allowsGroupOpacity", "masksToBounds", "cornerRadius", "maskedCorners",
    "doubleSided", "allowsEdgeAntialiasing", "needsDisplayOnBoundsChange", "borderColor", "contentsRect",
    "contentsCenter", "contentsGravity", "contentsScale", "minificationFilter", "magnificationFilter",
    "minificationFilterBias", "shadowColor", "shadowOffset", "shadowRadius", "borderWidth",
}


def empty_mask(mask):
    if mask.get("hidden") is True or mask.get("opacity") == 0:
        return True
    if mask.get("borderWidth", 0) > 0:
        return False
    return all(key in NON_PAINTING for key in mask)


def pruned_layers(layers):
    out = []
    for layer in layers:
        if isinstance(layer, dict) and (layer.get("hidden") is True or layer.get("opacity") == 0):
            continue
        masked_out = isinstance(layer, dict) and isinstance(layer.get("mask"), dict) and empty_mask(layer["mask"])
        out.append({} if masked_out else pruned(layer))
    return out


def pruned(layer):
    """The Python twin of SceneJSON.removingInvisibleLayers for one layer."""
    if not isinstance(layer, dict):
        return layer
    out = dict(layer)
    if isinstance(out.get("sublayers"), list):
        out["sublayers"] = pruned_layers(out["sublayers"])
    if isinstance(out.get("mask"), dict):
        out["mask"] = pruned(out["mask"])
    return out


def fails(scene, args, folder):
    if args.invisible:
        return invisible_changes(scene, args, folder)
    return fails_once(scene, args, folder)


def invisible_changes(scene, args, folder):
    without = dict(scene, layers=pruned_layers(scene.get("layers", [])))
    if without == scene:
        return False
    pngs = []
    try:
        for variant in (scene, without):
            fd, path = tempfile.mkstemp(suffix=".json", dir=folder)
            with os.fdopen(fd, "w") as f:
                json.dump(variant, f)
            text, rc = render(path, args.backend, path + ".png", False)
            os.remove(path)
            if rc != 0:
                return False
            pngs.append(path + ".png")
        done = subprocess.run([os.path.join(ROOT, "tools", "parity.py")] + pngs, capture_output=True)
        return done.returncode == 1
    finally:
        for png in pngs:
            os.remove(png)


def fails_once(scene, args, folder):
    fd, path = tempfile.mkstemp(suffix=".json", dir=folder)
    with os.fdopen(fd, "w") as f:
        json.dump(scene, f, indent=1)
    try:
        if args.parity:
            outs = []
            for backend in ("cpu", "gles"):
                png = path + "." + backend + ".png"
                text, rc = render(path, backend, png, False)
                if rc != 0:
                    return False
                outs.append(png)
            done = subprocess.run([os.path.join(ROOT, "tools", "parity.py"), outs[0], outs[1]], capture_output=True)
            for png in outs:
                os.remove(png)
            return done.returncode == 1
        text, rc = render(path, args.backend, path + ".png", bool(args.site))
        if os.path.exists(path + ".png"):
            os.remove(path + ".png")
        return re.search(args.match, text) is not None and (not args.site or args.site in text)
    finally:
        os.remove(path)


def candidates(node):
    """Smaller variants of `node`, biggest cuts first."""
    if isinstance(node, dict):
        for key in ("layers", "sublayers"):
            items = node.get(key)
            if isinstance(items, list):
                for i in range(len(items)):
                    yield {**node, key: items[:i] + items[i + 1:]}
                for i, item in enumerate(items):
                    if isinstance(item, dict):
                        for child in item.get("sublayers", []) + ([item["mask"]] if "mask" in item else []):
                            yield {**node, key: items[:i] + [child] + items[i + 1:]}
        for key in list(node):
            if key not in ("size",):
                yield {k: v for k, v in node.items() if k != key}
        for key, value in node.items():
            for smaller in candidates(value):
                yield {**node, key: smaller}
    elif isinstance(node, list):
        if all(isinstance(v, (int, float)) for v in node):
            rounded = [round(v) if isinstance(v, float) and abs(v) < 1e15 else v for v in node]
            if rounded != node:
                yield rounded
        elif len(node) > 1 and all(isinstance(v, dict) for v in node):
            for i in range(len(node)):
                yield node[:i] + node[i + 1:]
        for i, value in enumerate(node):
            for smaller in candidates(value):
                yield node[:i] + [smaller] + node[i + 1:]
    elif isinstance(node, float) and abs(node) < 1e15 and node != round(node):
        yield round(node)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scene")
    parser.add_argument("--backend", default="gles")
    parser.add_argument("--match", default="Fatal error")
    parser.add_argument("--site")
    parser.add_argument("--parity", action="store_true")
    parser.add_argument("--invisible", action="store_true")
    args = parser.parse_args()
    folder = os.path.dirname(os.path.abspath(args.scene))
    scene = json.load(open(args.scene))
    if not fails(scene, args, folder):
        sys.exit("reduce-scene: %s does not fail that way" % args.scene)
    changed = True
    while changed:
        changed = False
        for smaller in candidates(scene):
            if fails(smaller, args, folder):
                scene, changed = smaller, True
                break
    out = os.path.splitext(args.scene)[0] + ".reduced.json"
    with open(out, "w") as f:
        json.dump(scene, f, indent=1)
    print(out)
    print(json.dumps(scene, separators=(",", ":")))


if __name__ == "__main__":
    main()
