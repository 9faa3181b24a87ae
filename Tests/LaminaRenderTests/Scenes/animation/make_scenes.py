#!/usr/bin/env python3
"""Writes the animation reference scenes and their probes (docs/animation.md, the timing rules).

Every expected value is worked out here from the rules, not read back from a render: boxes are solid colours and
probes sit at their centres, so the colour is exact; `what` says where each number comes from. Run from this
folder: python3 make_scenes.py (needs Pillow for the flip-book sheet)."""
import json

GREY = [128, 128, 128, 255]
RED = [255, 0, 0, 255]
GREEN = [0, 255, 0, 255]
BLUE = [0, 0, 255, 255]


def box(name, x, y, color="#FF0000", size=10, animations=None, **extra):
    layer = {"name": name, "bounds": [0, 0, size, size], "position": [x, y], "backgroundColor": color}
    if animations:
        layer["animations"] = animations
    layer.update(extra)
    return layer


def move(a, b, **timing):
    return dict({"type": "basic", "keyPath": "position.x", "fromValue": a, "toValue": b}, **timing)


def probe(x, y, rgba, time, what, tol=2):
    return {"at": [x, y], "rgba": rgba, "tol": tol, "what": what, "time": time}


def at_x(y, x, time, what, others=()):
    """A red box centred at x on row y at `time`; grey at each of `others` (where it would be under another rule)."""
    result = [probe(x, y, RED, time, what + f": box at x {x}")]
    result += [probe(o, y, GREY, time, what + f": nothing at x {o}") for o in others if abs(o - x) >= 10]
    return result


def write(name, scene, probes):
    with open(name + ".json", "w") as f:
        json.dump(scene, f, indent=1)
        f.write("\n")
    with open(name + ".probes.json", "w") as f:
        json.dump({"scene": name + ".json", "issue": "animation", "probes": probes}, f, indent=1)
        f.write("\n")


def fill_modes():
    # position.x 15 -> 85 from 1 s to 2 s, linear; model x 50. Rows: removed, forwards, backwards, both.
    modes = ["removed", "forwards", "backwards", "both"]
    layers, probes = [], []
    for row, mode in enumerate(modes):
        y = 10 + 20 * row
        layers.append(box(mode, 50, y, animations=[move(15, 85, beginTime=1, duration=1, fillMode=mode,
                                                        removedOnCompletion=False)]))
        before = 15 if mode in ("backwards", "both") else 50
        after = 85 if mode in ("forwards", "both") else 50
        probes += at_x(y, before, 0.5, f"{mode}, 0.5 s (before the start at 1 s)", others=[15, 50])
        probes += at_x(y, 50, 1.5, f"{mode}, 1.5 s: halfway from 15 to 85")
        probes += at_x(y, after, 2.5, f"{mode}, 2.5 s (after the end at 2 s)", others=[50, 85])
        # The very start (a = 0) is active, not before.
        probes += at_x(y, 15, 1.0, f"{mode}, 1 s: the active period begins at its start value")
    write("fill-modes", {"size": [100, 80], "backgroundColor": "#808080", "layers": layers}, probes)


def repeats():
    layers, probes = [], []
    # Row 1: 10 -> 90 in 1 s, autoreverses, repeatCount 1.5: cycle 2 s, active 3 s; model x 50 (after: removed).
    layers.append(box("autoreverse", 50, 10, animations=[move(10, 90, duration=1, autoreverses=True,
                                                              repeatCount=1.5)]))
    probes += at_x(10, 30, 0.25, "autoreverse 0.25 s: forward, p 0.25")
    probes += at_x(10, 70, 1.25, "autoreverse 1.25 s: reversed half, u = 2 - 1.25 = 0.75")
    probes += at_x(10, 50, 2.5, "autoreverse 2.5 s: second cycle, forward, p 0.5")
    probes += at_x(10, 50, 3.5, "autoreverse 3.5 s: after 3 s, removed: the model's 50", others=[90])
    # Row 2: 10 -> 90 in 1 s, repeatDuration 2.5; model x 50.
    layers.append(box("repeatDuration", 50, 30, animations=[move(10, 90, duration=1, repeatDuration=2.5)]))
    probes += at_x(30, 30, 2.25, "repeatDuration 2.25 s: third iteration, p 0.25")
    probes += at_x(30, 50, 2.75, "repeatDuration 2.75 s: over at 2.5 s, the model's 50", others=[70])
    # Row 3: cumulative, 10 -> 30, 3 repeats of 1 s: iteration i adds i * 20.
    layers.append(box("cumulative", 50, 50, animations=[move(10, 30, duration=1, repeatCount=3, cumulative=True)]))
    probes += at_x(50, 20, 0.5, "cumulative 0.5 s: iteration 0, 10 + 10")
    probes += at_x(50, 60, 2.5, "cumulative 2.5 s: iteration 2, 10 + 2 * 20 + 10")
    # Row 4: timeOffset 0.5 on 10 -> 90 in 1 s: plays its second half first.
    layers.append(box("timeOffset", 50, 70, animations=[move(10, 90, duration=1, timeOffset=0.5)]))
    probes += at_x(70, 70, 0.25, "timeOffset 0.5, 0.25 s: t = 0.75 of the animation")
    probes += at_x(70, 30, 0.75, "timeOffset 0.5, 0.75 s: wrapped, t = 0.25")
    write("repeats", {"size": [100, 80], "backgroundColor": "#808080", "layers": layers}, probes)


def hierarchy():
    layers, probes = [], []
    # A layer at speed 2 holding a box moving 10 -> 90 over 2 s of its time.
    layers.append({"name": "fast", "bounds": [0, 0, 100, 20], "position": [50, 10], "speed": 2,
                   "sublayers": [box("fast box", 50, 10, animations=[move(10, 90, duration=2)])]})
    probes += at_x(10, 30, 0.25, "parent speed 2, 0.25 s: the box's time is 0.5 of 2")
    probes += at_x(10, 70, 0.75, "parent speed 2, 0.75 s: the box's time is 1.5 of 2")
    # A layer whose time begins at 1 s: the animation (10 -> 90 over 1 s) runs from 1 s to 2 s; model x 90.
    layers.append(box("late", 90, 30, beginTime=1, animations=[move(10, 90, duration=1)]))
    probes += at_x(30, 90, 0.5, "layer beginTime 1, 0.5 s: before the animation, the model's 90", others=[10])
    probes += at_x(30, 50, 1.5, "layer beginTime 1, 1.5 s: halfway")
    # A paused layer: speed 0, timeOffset 0.75: always 0.75 into 10 -> 90 over 1 s.
    layers.append(box("paused", 50, 50, speed=0, timeOffset=0.75, animations=[move(10, 90, duration=1)]))
    probes += at_x(50, 70, 0.1, "paused at local time 0.75")
    probes += at_x(50, 70, 5, "paused at local time 0.75, still")
    # A layer whose time is offset by 0.5 s and runs at half speed: local = t / 2 + 0.5.
    layers.append(box("offset", 50, 70, speed=0.5, timeOffset=0.5, animations=[move(10, 90, duration=1)]))
    probes += at_x(70, 50, 0, "speed 0.5, timeOffset 0.5, 0 s: local 0.5")
    probes += at_x(70, 70, 0.5, "speed 0.5, timeOffset 0.5, 0.5 s: local 0.75")
    write("timing-hierarchy", {"size": [100, 80], "backgroundColor": "#808080", "layers": layers}, probes)


def keyframes():
    layers, probes = [], []
    layers.append(box("linear keyTimes", 50, 10, animations=[{
        "type": "keyframe", "keyPath": "position.x", "values": [10, 50, 90], "keyTimes": [0, 0.25, 1],
        "duration": 1}]))
    probes += at_x(10, 30, 0.125, "keyTimes [0, 0.25, 1], 0.125 s: half of the first segment")
    probes += at_x(10, 70, 0.625, "keyTimes [0, 0.25, 1], 0.625 s: half of the second segment")
    layers.append(box("discrete", 50, 30, animations=[{
        "type": "keyframe", "keyPath": "position.x", "values": [10, 50, 90], "calculationMode": "discrete",
        "duration": 1}]))
    probes += at_x(30, 10, 0.2, "discrete, 0.2 s: value 0 holds for the first third", others=[50])
    probes += at_x(30, 50, 0.5, "discrete, 0.5 s: value 1", others=[10, 90])
    probes += at_x(30, 90, 0.9, "discrete, 0.9 s: value 2", others=[50])
    # A 40 x 8 bar turned 90 degrees over 1 s, kept at the end: vertical.
    bar = box("turning bar", 50, 60, color="#0000FF", animations=[{
        "type": "basic", "keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 90, "duration": 1,
        "fillMode": "forwards", "removedOnCompletion": False}])
    bar["bounds"] = [0, 0, 40, 8]
    layers.append(bar)
    probes += [probe(65, 60, BLUE, 0, "bar at 0 s: horizontal, 15 right of the centre"),
               probe(50, 45, GREY, 0, "bar at 0 s: nothing 15 above the centre"),
               probe(50, 45, BLUE, 2, "bar after 1 s: turned 90 degrees, 15 above the centre"),
               probe(65, 60, GREY, 2, "bar after 1 s: nothing 15 right of the centre")]
    write("keyframes", {"size": [100, 80], "backgroundColor": "#808080", "layers": layers}, probes)


def flipbook():
    from PIL import Image
    colors = [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255)]
    sheet = Image.new("RGBA", (48, 16))
    for i, c in enumerate(colors):
        sheet.paste(c, (16 * i, 0, 16 * i + 16, 16))
    sheet.save("flipbook.png")
    frames = "".join(f"""
        <key>f{i}.png</key>
        <dict>
            <key>frame</key>
            <string>{{{{{16 * i},0}},{{16,16}}}}</string>
            <key>offset</key>
            <string>{{0,0}}</string>
            <key>rotated</key>
            <false/>
            <key>sourceColorRect</key>
            <string>{{{{0,0}},{{16,16}}}}</string>
            <key>sourceSize</key>
            <string>{{16,16}}</string>
        </dict>""" for i in range(3))
    with open("flipbook.plist", "w") as f:
        f.write(f"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple Computer//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
    <key>frames</key>
    <dict>{frames}
    </dict>
    <key>metadata</key>
    <dict>
        <key>format</key>
        <integer>2</integer>
        <key>size</key>
        <string>{{48,16}}</string>
        <key>textureFileName</key>
        <string>flipbook.png</string>
    </dict>
</dict>
</plist>
""")
    layer = {"name": "sprite", "frame": [10, 10, 32, 32], "contents": "book/f0.png", "animations": [{
        "type": "keyframe", "keyPath": "contents", "values": ["book/f0.png", "book/f1.png", "book/f2.png"],
        "calculationMode": "discrete", "duration": 0.3, "repeatCount": "infinity"}]}
    probes = []
    for t, rgba, frame in [(0, RED, 0), (0.15, GREEN, 1), (0.25, BLUE, 2), (0.35, RED, 0), (0.95, RED, 0),
                           (1.15, BLUE, 2)]:
        probes.append(probe(26, 26, rgba, t, f"flip-book of 3 frames in 0.3 s, repeating: frame {frame} at {t} s"))
    probes.append(probe(50, 26, GREY, 0.15, "beside the sprite: background"))
    write("flipbook", {"size": [60, 50], "backgroundColor": "#808080", "spriteSheets": {"book": "flipbook.plist"},
                       "layers": [layer]}, probes)


def timeline():
    layers = [box("mover", 10, 10, animations=None),
              {"name": "panel", "frame": [0, 30, 100, 20], "backgroundColor": "#FF0000"}]
    entries = [
        {"at": 1, "layer": "mover", "set": {"position": [90, 10]}, "animationDuration": 1,
         "timingFunction": "linear"},
        {"at": 1, "layer": "panel", "set": {"backgroundColor": "#0000FF"}, "animationDuration": 2,
         "timingFunction": "linear"},
        {"at": 3.5, "layer": "mover", "set": {"position": [50, 10]}, "disableActions": True},
    ]
    probes = []
    probes += at_x(10, 10, 0.5, "mover before its change at 1 s", others=[50, 90])
    probes += at_x(10, 50, 1.5, "mover at 1.5 s: halfway, implicitly animated from 1 s", others=[10, 90])
    probes += at_x(10, 90, 2.5, "mover after 2 s: at its new place", others=[50])
    probes += at_x(10, 50, 4, "mover after 3.5 s: moved at once (disableActions)", others=[90])
    probes += [probe(50, 40, RED, 0.5, "panel before 1 s: red"),
               probe(50, 40, [128, 0, 128, 255], 2, "panel at 2 s: halfway red to blue (straight components)"),
               probe(50, 40, BLUE, 3.5, "panel after 3 s: blue")]
    write("timeline", {"size": [100, 50], "backgroundColor": "#808080", "layers": layers, "timeline": entries},
          probes)


def path():
    # A 16 x 6 bar along moveTo (10, 10), lineTo (90, 10), lineTo (90, 50): 120 points in 1 s at constant speed
    # (paced). With rotationMode auto it turns to the tangent: along x on the first leg, along y (90 degrees) on
    # the second.
    steps = [{"moveTo": [10, 10]}, {"lineTo": [90, 10]}, {"lineTo": [90, 50]}]
    bar = box("bar", 50, 70, color="#0000FF", animations=[{
        "type": "keyframe", "keyPath": "position", "path": steps, "calculationMode": "paced", "rotationMode": "auto",
        "duration": 1}])
    bar["bounds"] = [0, 0, 16, 6]
    probes = [probe(76, 10, BLUE, 0.5, "0.5 s: 60 along the path, at (70, 10), lengthwise along x: 6 right"),
              probe(70, 16, GREY, 0.5, "0.5 s: only 3 high, nothing 6 below the centre"),
              probe(90, 41, BLUE, 0.875, "0.875 s: 105 along, at (90, 35), turned along y: 6 below"),
              probe(96, 35, GREY, 0.875, "0.875 s: turned, only 3 wide: nothing 6 right of the centre"),
              probe(50, 70, BLUE, 2, "2 s: over, at the model place (50, 70)")]
    write("path", {"size": [100, 80], "backgroundColor": "#808080", "layers": [bar]}, probes)


def keyframe_paths():
    # Each row: a 6 x 6 box along moveTo (10, y), lineTo (30, y), lineTo (110, y) in 1 s: three keyframes (the
    # first point and the two line ends), 20 then 80 long. docs/animation.md, "Keyframes": linear and cubic reach
    # keyframe k at keyTimes[k] (evenly spaced without: 0, 0.5, 1) at constant speed within a segment; discrete
    # holds keyframe k from k/3 (or its key time); paced and cubicPaced move at constant speed over all 100.
    layers, probes = [], []

    def row(name, y, key, samples):
        steps = [{"moveTo": [10, y]}, {"lineTo": [30, y]}, {"lineTo": [110, y]}]
        layers.append(box(name, 60, y, color="#0000FF", size=6, animations=[dict(
            {"type": "keyframe", "keyPath": "position", "path": steps, "duration": 1, "fillMode": "forwards",
             "removedOnCompletion": False}, **key)]))
        for time, x, others, what in samples:
            probes.append(probe(x, y, BLUE, time, f"{name}, {time} s: {what}: box at x {x}"))
            probes.extend(probe(o, y, GREY, time, f"{name}, {time} s: nothing at x {o}") for o in others)

    row("linear", 10, {}, [
        (0.25, 20, [35], "half the first segment (20 long) at half its time"),
        (0.75, 70, [85], "half the second segment (80 long)"),
        (1.5, 110, [60], "held at the end (forwards)")])
    row("linear keyTimes", 25, {"keyTimes": [0, 0.2, 1]}, [
        (0.1, 20, [], "half the first segment, which ends at 0.2"),
        (0.6, 70, [85], "half the second segment, from 0.2 to 1")])
    row("cubic", 40, {"calculationMode": "cubic"}, [
        (0.25, 20, [35], "the path's own lines, keyframes as linear")])
    row("discrete", 55, {"calculationMode": "discrete"}, [
        (0.2, 10, [20], "the first keyframe until 1/3"),
        (0.5, 30, [45], "the second from 1/3"),
        (0.8, 110, [90], "the last from 2/3")])
    row("paced", 70, {"calculationMode": "paced", "keyTimes": [0, 0.9, 1]}, [
        (0.25, 35, [20], "25 of 100 along, key times ignored"),
        (0.75, 85, [70], "75 of 100 along")])
    row("cubicPaced", 85, {"calculationMode": "cubicPaced"}, [
        (0.5, 60, [30], "50 of 100 along")])
    write("keyframe-paths", {"size": [120, 95], "backgroundColor": "#808080", "layers": layers}, probes)


def spring():
    # position.x 10 -> 90, spring m 1, k 100, c 10 (underdamped: zeta 0.5, omega_d = sqrt(75)), v0 0, for 2 s:
    # x = from + (to - from) * (1 - e^(-5t) (cos(w t) + 5 / w sin(w t))).
    import math
    w = math.sqrt(75)

    def x_at(t):
        return 10 + 80 * (1 - math.exp(-5 * t) * (math.cos(w * t) + 5 / w * math.sin(w * t)))

    layers = [box("spring", 50, 10, animations=[{"type": "spring", "keyPath": "position.x", "fromValue": 10,
                                                  "toValue": 90, "duration": 2}])]
    probes = []
    for t in (0.2, 0.35, 1.5):
        x = x_at(t)
        probes += at_x(10, round(x), t, f"spring at {t} s: x = {x:.2f}", others=[round(x) - 10, round(x) + 10])
    write("spring", {"size": [120, 20], "backgroundColor": "#808080", "layers": layers}, probes)


def transitions():
    # Four 20 x 20 panels turn from red to blue at 1 s with a 1 s linear transition each (disableActions: the
    # colour itself changes at once). At 1.5 s each is halfway.
    kinds = [("fade", None), ("push", "fromLeft"), ("moveIn", "fromTop"), ("reveal", "fromRight")]
    layers, entries, probes = [], [], []
    for i, (kind, subtype) in enumerate(kinds):
        x0 = 10 + 30 * i
        layers.append({"name": kind, "frame": [x0, 10, 20, 20], "backgroundColor": "#FF0000"})
        transition = {"type": "transition", "transitionType": kind, "duration": 1}
        if subtype:
            transition["subtype"] = subtype
        entries.append({"at": 1, "layer": kind, "set": {"backgroundColor": "#0000FF"}, "disableActions": True,
                        "transition": transition})
        probes += [probe(x0 + 10, 20, RED, 0.5, f"{kind} before 1 s: red"),
                   probe(x0 + 10, 20, BLUE, 2.5, f"{kind} after 2 s: blue")]
    probes += [probe(20, 20, [128, 0, 128, 255], 1.5, "fade halfway: red and blue mixed evenly"),
               # push from the left: the new picture enters from the left, pushing the old out to the right.
               probe(42, 20, BLUE, 1.5, "push fromLeft halfway: the new (blue) on the left half"),
               probe(58, 20, RED, 1.5, "push fromLeft halfway: the old (red) on the right half"),
               # moveIn from the top: the new slides down over the old.
               probe(80, 12, BLUE, 1.5, "moveIn fromTop halfway: the new (blue) over the top half"),
               probe(80, 28, RED, 1.5, "moveIn fromTop halfway: the old (red) below"),
               # reveal from the right: the old slides off to the left, uncovering the new from the right.
               probe(102, 20, RED, 1.5, "reveal fromRight halfway: the old (red) still on the left half"),
               probe(118, 20, BLUE, 1.5, "reveal fromRight halfway: the new (blue) uncovered on the right")]
    write("transitions", {"size": [130, 40], "backgroundColor": "#808080", "layers": layers,
                          "timeline": entries}, probes)


fill_modes()
path()
keyframe_paths()
transitions()
spring()
repeats()
hierarchy()
keyframes()
flipbook()
timeline()
