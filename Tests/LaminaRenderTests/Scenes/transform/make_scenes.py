#!/usr/bin/env python3
"""Writes the transform-layer cube scenes and the scroll-layer scenes of this folder, with their probes.

The probes are worked out here independently of Lamina: each face's centre and outward normal are turned by the
cube's two rotations (Core Animation's rotation matrices, row vectors), a face is seen when the eye (on the stage's
anchor, 500 points in front: the stage's perspective) lies on its outer side, and its centre is projected by
d / (d - z). The faces are double-sided and listed back-first in a bad order, so only drawing them back to front by
depth gives these colours."""
import json, math

D = 500.0
FACES = [  # name, colour, rotation (deg, axis) of the face, translation, outward normal
    ("back", "#0000FFFF", (180, [0, 1, 0]), [0, 0, -50]),
    ("top", "#00FFFFFF", (90, [1, 0, 0]), [0, -50, 0]),
    ("front", "#FF0000FF", (0, [0, 0, 1]), [0, 0, 50]),
    ("left", "#FFFF00FF", (-90, [0, 1, 0]), [-50, 0, 0]),
    ("bottom", "#FF00FFFF", (-90, [1, 0, 0]), [0, 50, 0]),
    ("right", "#00FF00FF", (90, [0, 1, 0]), [50, 0, 0]),
]


def rotation(deg, axis):
    a = math.radians(deg)
    x, y, z = axis
    n = math.sqrt(x * x + y * y + z * z)
    x, y, z = x / n, y / n, z / n
    c, s, t = math.cos(a), math.sin(a), 1 - math.cos(a)
    return [[t * x * x + c, t * x * y + s * z, t * x * z - s * y],
            [t * x * y - s * z, t * y * y + c, t * y * z + s * x],
            [t * x * z + s * y, t * y * z - s * x, t * z * z + c]]


def apply(p, m):
    return [sum(p[i] * m[i][j] for i in range(3)) for j in range(3)]


def rgba(hex_colour):
    h = hex_colour.lstrip("#")
    return [int(h[i:i + 2], 16) for i in range(0, 8, 2)]


def cube(name, ax, ay):
    rx, ry = rotation(ax, [1, 0, 0]), rotation(ay, [0, 1, 0])
    layers = []
    probes = []
    for face, colour, (deg, axis), move in FACES:
        layers.append({"name": face, "frame": [0, 0, 100, 100], "backgroundColor": colour,
                       "transform": [{"rotate": deg, "axis": axis}, {"translate": move}]})
        centre = apply(apply(move, rx), ry)
        normal = [c / 50 for c in centre]
        eye = [0 - centre[0], 0 - centre[1], D - centre[2]]
        length = math.sqrt(sum(e * e for e in eye))
        facing = sum(n * e for n, e in zip(normal, eye)) / length
        if facing > 0.3:
            k = D / (D - centre[2])
            at = [round(20 + 100 + centre[0] * k, 2), round(20 + 100 + centre[1] * k, 2)]
            probes.append({"at": at, "rgba": rgba(colour), "tol": 2,
                           "what": f"the {face} face faces the eye (cos {facing:.2f}): its centre shows it, in front "
                                   f"of the faces behind it whatever their order"})
    probes.append({"at": [4, 4], "rgba": [255, 255, 255, 255], "tol": 2, "what": "background outside the cube"})
    scene = {
        "size": [240, 240], "backgroundColor": "#FFFFFFFF",
        "layers": [{
            "name": "stage", "frame": [20, 20, 200, 200], "sublayerTransform": [{"perspective": D}],
            "sublayers": [{
                "name": "cube", "type": "transform", "frame": [50, 50, 100, 100],
                "transform": [{"rotate": ax, "axis": [1, 0, 0]}, {"rotate": ay, "axis": [0, 1, 0]}],
                "sublayers": layers,
            }],
        }],
    }
    with open(f"{name}.json", "w") as f:
        json.dump(scene, f, indent=1)
    with open(f"{name}.probes.json", "w") as f:
        json.dump({"scene": f"{name}.json", "issue": "transform layers", "scales": [1, 2], "probes": probes}, f,
                  indent=1)


QUADRANTS = [((0, 0), "#FF0000FF"), ((100, 0), "#00FF00FF"), ((0, 100), "#0000FFFF"), ((100, 100), "#FFFF00FF")]


def content_colour(x, y):
    for (qx, qy), colour in QUADRANTS:
        if qx <= x < qx + 100 and qy <= y < qy + 100:
            return rgba(colour)
    return [255, 255, 255, 255]  # nothing there: the root's background


def scroll(name, origin, mode):
    scene = {
        "size": [140, 140], "backgroundColor": "#FFFFFFFF",
        "layers": [{
            "name": "scroller", "type": "scroll", "scrollMode": mode, "position": [70, 70],
            "bounds": [origin[0], origin[1], 100, 100],
            "sublayers": [{"name": f"quadrant {i}", "frame": [qx, qy, 100, 100], "backgroundColor": colour}
                          for i, ((qx, qy), colour) in enumerate(QUADRANTS)],
        }],
    }
    probes = []
    for px, py in [(25, 25), (75, 25), (25, 75), (75, 75), (45, 45), (95, 5)]:
        x, y = origin[0] + px, origin[1] + py
        probes.append({"at": [20 + px, 20 + py], "rgba": content_colour(x, y), "tol": 2,
                       "what": f"the scroll layer's point ({px}, {py}) shows its sublayers' point ({x}, {y}): the "
                               f"bounds' origin is the scroll offset, taken as given whatever the scrollMode"})
    probes.append({"at": [10, 70], "rgba": [255, 255, 255, 255], "tol": 2,
                   "what": "left of the scroll layer: masksToBounds is true by default, so nothing spills out"})
    probes.append({"at": [130, 130], "rgba": [255, 255, 255, 255], "tol": 2,
                   "what": "below and right of the scroll layer: clipped"})
    with open(f"{name}.json", "w") as f:
        json.dump(scene, f, indent=1)
    with open(f"{name}.probes.json", "w") as f:
        json.dump({"scene": f"{name}.json", "issue": "scroll layers", "scales": [1, 2], "probes": probes}, f,
                  indent=1)


cube("cube-transform-layer", 25, 35)
cube("cube-transform-layer-turned", -40, 150)
cube("cube-transform-layer-under", 200, -70)
scroll("scroll-origin", (0, 0), "both")
scroll("scroll-offset", (50, 30), "both")
scroll("scroll-offset-mode-none", (120, 110), "none")
scroll("scroll-negative", (-30, 60), "vertically")
