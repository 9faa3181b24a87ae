/// The JavaScript that every expression heap runs once (docs/expressions.md): After Effects' expression
/// language as lottie-web provides it, over the native bridge `lamina_duktape.c` passes in (`valueAt`,
/// `keyTimes`, `layer`, `layerName`). Its value is a function of that bridge returning the hooks the C side
/// calls around each evaluation: `begin(time, frameRate, compWidth, compHeight, compDuration, layerIndex,
/// inPoint, outPoint, numLayers, layerName, propertyName, value)`, `end(completionValue)`, and `cleanup(all)` after it.
///
/// Times are seconds throughout (lottie-web counts frames inside; the results are the same).
let expressionPrelude = #"""
(function (G) { return function (native) {
var S = { time: 0, fr: 30, w: 0, h: 0, dur: 0, index: 0, inP: 0, outP: 0, nL: 0, layerName: '', prop: '',
          value: 0, valueArr: [0], keys: null, seed: 0, rng: 0 };
var isArray = Array.isArray, floor = Math.floor, abs = Math.abs, sqrt = Math.sqrt;

var imul = Math.imul;  // exact 32-bit integer multiplication: the same on every machine
function fmix(h) {
    h ^= h >>> 16; h = imul(h, 0x85ebca6b); h ^= h >>> 13; h = imul(h, 0xc2b2ae35); h ^= h >>> 16;
    return h >>> 0;
}
function hash() {
    var h = 0x811c9dc5;
    for (var i = 0; i < arguments.length; i++) {
        var k = +arguments[i]; if (k !== k) k = 0;
        var lo = k >>> 0, hi = floor(k / 4294967296) >>> 0;
        h = fmix(((h ^ lo) + 0x9e3779b9) | 0);
        if (hi !== 0) h = fmix(((h ^ hi) + 0x7f4a7c15) | 0);
    }
    return h;
}
function stringHash(s) {
    var h = 0x811c9dc5;
    for (var i = 0; i < s.length; i++) h = imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
    return h >>> 0;
}
function scalar(a) { return a.length === 1 ? a[0] : a; }
function vec(v) { return isArray(v) ? v : [v]; }
function valueArrAt(t) {
    var v = native.valueAt(+t);
    return (v === undefined || v.length === 0) ? S.valueArr.slice() : v;
}
function valueAt(t) { return scalar(valueArrAt(t)); }
function keyTimes() { if (S.keys === null) S.keys = native.keyTimes(); return S.keys; }

// Vector arithmetic as lottie-web's $bm_sum & co.: numbers with numbers, arrays element by element (the shorter
// one padded with 0), a number added to an array goes to its first element, arrays times or over a number scale.
function add(a, b) {
    var ta = isArray(a), tb = isArray(b);
    if (!ta && !tb) return a + b;
    if (ta && !tb) { a = a.slice(); a[0] = a[0] + b; return a; }
    if (!ta && tb) { b = b.slice(); b[0] = a + b[0]; return b; }
    var n = Math.max(a.length, b.length), r = [];
    for (var i = 0; i < n; i++) r[i] = (i < a.length ? a[i] : 0) + (i < b.length ? b[i] : 0);
    return r;
}
function sub(a, b) {
    var ta = isArray(a), tb = isArray(b);
    if (!ta && !tb) return a - b;
    if (ta && !tb) { a = a.slice(); a[0] = a[0] - b; return a; }
    if (!ta && tb) { b = b.map(function (x) { return -x; }); b[0] = a + b[0]; return b; }
    var n = Math.max(a.length, b.length), r = [];
    for (var i = 0; i < n; i++) r[i] = (i < a.length ? a[i] : 0) - (i < b.length ? b[i] : 0);
    return r;
}
function mul(a, b) {
    var ta = isArray(a), tb = isArray(b);
    if (!ta && !tb) return a * b;
    if (ta && !tb) return a.map(function (x) { return x * b; });
    if (!ta && tb) return b.map(function (x) { return a * x; });
    var n = Math.max(a.length, b.length), r = [];
    for (var i = 0; i < n; i++) r[i] = (i < a.length ? a[i] : 0) * (i < b.length ? b[i] : 0);
    return r;
}
function div(a, b) {
    var ta = isArray(a), tb = isArray(b);
    if (!ta && !tb) return a / b;
    if (ta && !tb) return a.map(function (x) { return x / b; });
    if (!ta && tb) return b.map(function (x) { return a / x; });
    var n = Math.max(a.length, b.length), r = [];
    for (var i = 0; i < n; i++) r[i] = (i < a.length ? a[i] : 0) / (i < b.length ? b[i] : 0);
    return r;
}
function mod(a, b) {
    if (!isArray(a) && !isArray(b)) return a % b;
    a = vec(a); b = vec(b);
    var r = [];
    for (var i = 0; i < a.length; i++) r[i] = a[i] % (i < b.length ? b[i] : b[0]);
    return r;
}
function length(a, b) {
    if (b !== undefined) a = sub(a, b);
    if (!isArray(a)) return abs(a);
    var s = 0;
    for (var i = 0; i < a.length; i++) s += a[i] * a[i];
    return sqrt(s);
}
function normalize(v) { return div(v, length(v)); }
function dot(a, b) {
    a = vec(a); b = vec(b);
    var s = 0, n = Math.min(a.length, b.length);
    for (var i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}
function cross(a, b) {
    var a0 = a[0] || 0, a1 = a[1] || 0, a2 = a[2] || 0, b0 = b[0] || 0, b1 = b[1] || 0, b2 = b[2] || 0;
    return [a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0];
}
function clampOne(v, lo, hi) { var mn = Math.min(lo, hi), mx = Math.max(lo, hi); return v < mn ? mn : (v > mx ? mx : v); }
function clamp(v, lo, hi) {
    if (!isArray(v)) return clampOne(v, isArray(lo) ? lo[0] : lo, isArray(hi) ? hi[0] : hi);
    var r = [];
    for (var i = 0; i < v.length; i++)
        r[i] = clampOne(v[i], isArray(lo) ? lo[i] : lo, isArray(hi) ? hi[i] : hi);
    return r;
}
function mix(v1, v2, f) {
    if (!isArray(v1) && !isArray(v2)) return v1 + (v2 - v1) * f;
    var a = vec(v1), b = vec(v2), n = Math.max(a.length, b.length), r = [];
    for (var i = 0; i < n; i++) {
        var x = i < a.length ? a[i] : 0, y = i < b.length ? b[i] : 0;
        r[i] = x + (y - x) * f;
    }
    return r;
}

// A cubic bezier easing from (0,0) to (1,1) through (x1,y1), (x2,y2): y at x.
function bezierEasing(x1, y1, x2, y2) {
    function coord(s, p1, p2) { var u = 1 - s; return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s; }
    return function (x) {
        if (x <= 0) return 0;
        if (x >= 1) return 1;
        var lo = 0, hi = 1, s = x;
        for (var i = 0; i < 60; i++) {
            s = (lo + hi) / 2;
            if (coord(s, x1, x2) < x) lo = s; else hi = s;
        }
        return coord((lo + hi) / 2, y1, y2);
    };
}
var easeInOutCurve = bezierEasing(0.33, 0, 0.667, 1);
var easeInCurve = bezierEasing(0.333, 0, 0.833, 0.833);
var easeOutCurve = bezierEasing(0.167, 0.167, 0.667, 1);
function interpolator(curve) {
    return function (t, tMin, tMax, v1, v2) {
        if (v1 === undefined) { v1 = tMin; v2 = tMax; tMin = 0; tMax = 1; }
        if (tMax < tMin) { var swap = tMax; tMax = tMin; tMin = swap; swap = v1; v1 = v2; v2 = swap; }
        if (t <= tMin) return v1;
        if (t >= tMax) return v2;
        var f = tMax === tMin ? 0 : (t - tMin) / (tMax - tMin);
        return mix(v1, v2, curve ? curve(f) : f);
    };
}
var linear = interpolator(null), ease = interpolator(easeInOutCurve);
var easeIn = interpolator(easeInCurve), easeOut = interpolator(easeOutCurve);

// Random numbers: the same sequence for a property, a seed and a frame on every run and machine.
// The property's seed, made when an expression first asks for randomness (hashing costs more than the rest of
// a plain evaluation).
function seed() {
    if (S.seed === -1) S.seed = hash(stringHash(S.layerName), S.index, stringHash(S.prop));
    return S.seed;
}
function reseed(userSeed, timeless) {
    S.rng = hash(seed(), userSeed, timeless ? -1 : Math.round(S.time * S.fr)) | 0;
    S.rngReady = true;
}
function nextUnit() {
    if (!S.rngReady) reseed(0, false);
    S.rng = (S.rng + 0x6d2b79f5) | 0;
    var t = S.rng;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
function scaled(draw, a, b) {
    if (a === undefined) return draw();
    if (b === undefined) {
        if (isArray(a)) return a.map(function (x) { return draw() * x; });
        return draw() * a;
    }
    if (isArray(a) || isArray(b)) {
        var lo = vec(a), hi = vec(b), n = Math.max(lo.length, hi.length), r = [];
        for (var i = 0; i < n; i++) { var x = lo[i] || 0, y = hi[i] || 0; r[i] = x + draw() * (y - x); }
        return r;
    }
    return a + draw() * (b - a);
}
function gaussUnit() {
    var u = nextUnit(), v = nextUnit();
    if (u < 1e-12) u = 1e-12;
    var z = sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return 0.5 + z * (0.5 / 1.6448536269514722);  // 90 % within 0...1, as After Effects says
}
function random(a, b) { return scaled(nextUnit, a, b); }
function gaussRandom(a, b) { return scaled(gaussUnit, a, b); }
function seedRandom(n, timeless) { reseed(+n || 0, !!timeless); }

// Smooth value noise in -1...1 for wiggle: hashed lattice values, smoothstep between them.
function noise(x, dimension, octave) {
    var i = floor(x), f = x - i, u = f * f * (3 - 2 * f);
    var s = seed(), a = hash(s, dimension, octave, i) / 2147483648 - 1;
    var b = hash(s, dimension, octave, i + 1) / 2147483648 - 1;
    return a + (b - a) * u;
}
function wiggle(freq, amp, octaves, ampMult, t) {
    freq = +freq; amp = +amp;
    octaves = octaves === undefined ? 1 : Math.max(1, Math.min(16, floor(+octaves) || 1));
    ampMult = ampMult === undefined ? 0.5 : +ampMult;
    var at = t === undefined ? S.time : +t;
    var base = t === undefined ? S.valueArr : valueArrAt(at), r = [];
    for (var d = 0; d < base.length; d++) {
        var sum = 0, a = 1, f = freq;
        for (var o = 0; o < octaves; o++) { sum += a * noise(f * at, d, o); a *= ampMult; f *= 2; }
        r[d] = base[d] + amp * sum;
    }
    return scalar(r);
}

// Loops (lottie-web's loopOut/loopIn, in seconds).
function combine(a, b, f) {
    var r = [];
    for (var i = 0; i < a.length; i++) r[i] = f(a[i], i < b.length ? b[i] : 0);
    return r;
}
function loopOutImpl(type, n, byDuration) {
    var keys = keyTimes(), t = S.time;
    type = type ? String(type).toLowerCase() : 'cycle';
    if (keys.length < 2) return S.value;
    var last = keys[keys.length - 1];
    if (t <= last) return S.value;
    var first, cycle;
    if (!byDuration) {
        n = +n || 0;
        if (!n || n > keys.length - 1 || n < 0) n = keys.length - 1;
        first = keys[keys.length - 1 - floor(n)];
        cycle = last - first;
    } else {
        cycle = !n ? Math.max(0, last - S.inP) : abs(+n);
        first = last - cycle;
    }
    if (!(cycle > 0)) return S.value;
    if (type === 'pingpong') {
        var iterations = floor((t - first) / cycle);
        if (iterations % 2 !== 0) return valueAt(cycle - (t - first) % cycle + first);
    } else if (type === 'offset') {
        var start = valueArrAt(first), end = valueArrAt(last), current = valueArrAt((t - first) % cycle + first);
        var repeats = floor((t - first) / cycle);
        return scalar(combine(current, combine(end, start, function (x, y) { return x - y; }),
                              function (c, d) { return c + d * repeats; }));
    } else if (type === 'continue') {
        var lastValue = valueArrAt(last), before = valueArrAt(last - 0.001);
        return scalar(combine(lastValue, before, function (x, y) { return x + (x - y) / 0.001 * (t - last); }));
    }
    return valueAt((t - first) % cycle + first);
}
function loopInImpl(type, n, byDuration) {
    var keys = keyTimes(), t = S.time;
    type = type ? String(type).toLowerCase() : 'cycle';
    if (keys.length < 2) return S.value;
    var first = keys[0];
    if (t >= first) return S.value;
    var last, cycle;
    if (!byDuration) {
        n = +n || 0;
        if (!n || n > keys.length - 1 || n < 0) n = keys.length - 1;
        last = keys[floor(n)];
        cycle = last - first;
    } else {
        cycle = !n ? Math.max(0, S.outP - first) : abs(+n);
        last = first + cycle;
    }
    if (!(cycle > 0)) return S.value;
    if (type === 'pingpong') {
        var iterations = floor((first - t) / cycle);
        if (iterations % 2 === 0) return valueAt((first - t) % cycle + first);
    } else if (type === 'offset') {
        var start = valueArrAt(first), end = valueArrAt(last);
        var current = valueArrAt(cycle - (first - t) % cycle + first);
        var repeats = floor((first - t) / cycle) + 1;
        return scalar(combine(current, combine(end, start, function (x, y) { return x - y; }),
                              function (c, d) { return c - d * repeats; }));
    } else if (type === 'continue') {
        var firstValue = valueArrAt(first), after = valueArrAt(first + 0.001);
        return scalar(combine(firstValue, after, function (x, y) { return x - (y - x) / 0.001 * (first - t); }));
    }
    return valueAt(cycle - (first - t) % cycle + first);
}
function loopOut(type, n) { return loopOutImpl(type, n, false); }
function loopIn(type, n) { return loopInImpl(type, n, false); }
function loopOutDuration(type, d) { return loopOutImpl(type, d, true); }
function loopInDuration(type, d) { return loopInImpl(type, d, true); }
function velocityAtTime(t) {
    t = +t;
    var h = 0.001, a = valueArrAt(t - h), b = valueArrAt(t);
    return scalar(combine(b, a, function (x, y) { return (x - y) / h; }));
}
function speedAtTime(t) { return length(vec(velocityAtTime(t))); }
function keyObject(i) {
    var keys = keyTimes();
    return { index: i, time: keys[i - 1], value: valueAt(keys[i - 1]) };
}
function key(n) {
    var keys = keyTimes(), i = floor(+n);
    if (!(i >= 1 && i <= keys.length))
        throw new RangeError('key(' + n + '): the property has ' + keys.length + ' keyframes');
    return keyObject(i);
}
function nearestKey(t) {
    var keys = keyTimes();
    if (keys.length === 0) throw new RangeError('nearestKey: the property has no keyframes');
    t = +t;
    var best = 0;
    for (var i = 1; i < keys.length; i++) if (abs(keys[i] - t) < abs(keys[best] - t)) best = i;
    return keyObject(best + 1);
}
function framesToTime(frames, fps) { return frames / (fps === undefined ? S.fr : fps); }
function timeToFrames(t, fps) { return (t === undefined ? S.time : t) * (fps === undefined ? S.fr : fps); }
function degreesToRadians(d) { return d * Math.PI / 180; }
function radiansToDegrees(r) { return r * 180 / Math.PI; }
function posterizeTime(fps) {
    fps = +fps;
    if (fps > 0) { S.time = floor(S.time * fps) / fps; G.time = S.time; }
    return S.time;
}

var thisProperty = {
    valueAtTime: valueAt, velocityAtTime: velocityAtTime, speedAtTime: speedAtTime, key: key,
    nearestKey: nearestKey, loopOut: loopOut, loopIn: loopIn, loopOutDuration: loopOutDuration,
    loopInDuration: loopInDuration,
    get value() { return S.value; },
    get numKeys() { return keyTimes().length; },
    get velocity() { return velocityAtTime(S.time); },
    get speed() { return speedAtTime(S.time); },
    get name() { return S.prop; }
};

// Layers: the host answers by name or 1-based index.
var transformNames = ['position', 'anchorPoint', 'scale', 'rotation', 'opacity'];
function layerInterface(byIndex, ref, current) {
    function read(property, t) {
        var v = native.layer(byIndex, ref, property, t === undefined ? S.time : +t);
        if (v === undefined || v.length === 0)
            throw new ReferenceError('layer ' + (byIndex ? ref : '"' + ref + '"') + ' has no ' + property);
        return v;
    }
    function property(name) {
        var v = read(name);
        if (v.length === 1) return v[0];
        Object.defineProperty(v, 'valueAtTime', { value: function (t) { return scalar(read(name, t)); } });
        return v;
    }
    var transform = {}, layer = { transform: transform };
    transformNames.forEach(function (name) {
        var getter = { get: function () { return property(name); }, enumerable: true };
        Object.defineProperty(transform, name, getter);
        Object.defineProperty(layer, name, getter);
    });
    Object.defineProperty(transform, 'valueAtTime', { value: function (name, t) { return scalar(read(name, t)); } });
    Object.defineProperty(layer, 'name', { get: function () {
        if (current) return S.layerName;
        if (!byIndex) return ref;
        return native.layerName(true, ref);
    }, enumerable: true });
    Object.defineProperty(layer, 'index', { get: function () {
        if (current) return S.index;
        return byIndex ? ref : read('index')[0];
    }, enumerable: true });
    Object.defineProperty(layer, 'inPoint', { get: function () { return current ? S.inP : read('inPoint')[0]; },
                                              enumerable: true });
    Object.defineProperty(layer, 'outPoint', { get: function () { return current ? S.outP : read('outPoint')[0]; },
                                               enumerable: true });
    Object.freeze(transform);
    return Object.freeze(layer);  // shared by later evaluations (below): nobody may change it
}
// The layer objects, kept across evaluations (they read the time and the host when asked): making one costs
// more than a plain evaluation.
var layerCache = Object.create(null), layerCacheSize = 0;
var thisLayer = {};
(function () {
    var current = null, currentIndex = -1;
    ['transform', 'position', 'anchorPoint', 'scale', 'rotation', 'opacity', 'name', 'index', 'inPoint',
     'outPoint'].forEach(function (name) {
        Object.defineProperty(thisLayer, name, { get: function () {
            if (current === null || currentIndex !== S.index) { current = layerInterface(true, S.index, true); currentIndex = S.index; }
            return current[name];
        }, enumerable: true });
    });
})();
var thisComp = {
    layer: function (ref) {
        var byIndex = typeof ref === 'number';
        if (byIndex && !(ref >= 1 && floor(ref) === ref))
            throw new RangeError('thisComp.layer(' + ref + '): layer indices count from 1');
        if (!byIndex) ref = String(ref);
        if (native.layer(byIndex, ref, 'position', S.time) === undefined)
            throw new ReferenceError('thisComp.layer(' + (byIndex ? ref : '"' + ref + '"') + '): the comp has no such layer');
        var key = (byIndex ? 'i' : 'n') + ref, layer = layerCache[key];
        if (layer === undefined) {
            if (layerCacheSize >= 64) { layerCache = Object.create(null); layerCacheSize = 0; }
            layer = layerCache[key] = layerInterface(byIndex, ref, false);
            layerCacheSize++;
        }
        return layer;
    },
    get width() { return S.w; },
    get height() { return S.h; },
    get frameDuration() { return 1 / S.fr; },
    get duration() { return S.dur; },
    get numLayers() { return S.nL; }
};

// Native methods that loop in C over an array-like's length never see the deadline: refuse huge lengths.
var lengthLimit = 1 << 22;
['indexOf', 'lastIndexOf', 'join', 'reverse', 'sort', 'slice', 'splice', 'fill', 'copyWithin', 'concat',
 'shift', 'unshift', 'toString', 'toLocaleString', 'includes', 'find', 'findIndex', 'forEach', 'map',
 'filter', 'some', 'every', 'reduce', 'reduceRight'].forEach(function (name) {
    var original = Array.prototype[name];
    if (typeof original !== 'function') return;
    Object.defineProperty(Array.prototype, name, { value: function () {
        if (this !== null && this !== undefined) {
            var n = +Object(this).length;
            if (n > lengthLimit) throw new RangeError('Array.prototype.' + name + ' on ' + n + ' elements: expressions allow ' + lengthLimit);
        }
        if (name === 'concat') for (var i = 0; i < arguments.length; i++) {
            if (isArray(arguments[i]) && arguments[i].length > lengthLimit)
                throw new RangeError('Array.prototype.concat of ' + arguments[i].length + ' elements: expressions allow ' + lengthLimit);
        }
        return original.apply(this, arguments);
    }, writable: true, configurable: true });
});

// Regular expressions match in C without the deadline (catastrophic backtracking runs up to 1e9 steps a call):
// refused when they would run. Literals still compile.
function noRegExp() { throw new TypeError('regular expressions are not available in expressions'); }
function isRegExp(x) { return Object.prototype.toString.call(x) === '[object RegExp]'; }
['exec', 'test'].forEach(function (name) {
    Object.defineProperty(RegExp.prototype, name, { value: noRegExp, writable: true, configurable: true });
});
['match', 'search', 'replace', 'split'].forEach(function (name) {
    var original = String.prototype[name];
    if (typeof original !== 'function') return;
    Object.defineProperty(String.prototype, name, { value: function (pattern) {
        if (isRegExp(pattern)) noRegExp();
        return original.apply(this, arguments);
    }, writable: true, configurable: true });
});

// The sandbox: no output, no clock, no engine internals.
['print', 'alert', 'Duktape', 'performance', 'Date', 'CBOR', 'RegExp'].forEach(function (name) { delete G[name]; });
var deterministicRandom = function () { return nextUnit(); };
Object.defineProperty(Math, 'random', { value: deterministicRandom });

var builtins = {
    linear: linear, ease: ease, easeIn: easeIn, easeOut: easeOut, clamp: clamp,
    add: add, sub: sub, mul: mul, div: div, mod: mod, sum: add, $bm_sum: add, $bm_sub: sub, $bm_mul: mul,
    $bm_div: div, $bm_mod: mod, $bm_neg: function (a) { return isArray(a) ? a.map(function (x) { return -x; }) : -a; },
    $bm_isInstanceOfArray: isArray,
    length: length, normalize: normalize, dot: dot, cross: cross,
    degreesToRadians: degreesToRadians, radiansToDegrees: radiansToDegrees,
    framesToTime: framesToTime, timeToFrames: timeToFrames, posterizeTime: posterizeTime,
    wiggle: wiggle, random: random, gaussRandom: gaussRandom, seedRandom: seedRandom,
    loopOut: loopOut, loopIn: loopIn, loopOutDuration: loopOutDuration, loopInDuration: loopInDuration,
    valueAtTime: valueAt, velocityAtTime: velocityAtTime, speedAtTime: speedAtTime, key: key,
    nearestKey: nearestKey, thisProperty: thisProperty, thisComp: thisComp, thisLayer: thisLayer
};
Object.keys(builtins).forEach(function (name) {
    Object.defineProperty(G, name, { value: builtins[name], writable: false, configurable: false, enumerable: false });
});
[['numKeys', function () { return keyTimes().length; }], ['transform', function () { return thisLayer.transform; }],
 ['index', function () { return S.index; }], ['inPoint', function () { return S.inP; }],
 ['outPoint', function () { return S.outP; }], ['velocity', function () { return velocityAtTime(S.time); }],
 ['speed', function () { return speedAtTime(S.time); }]].forEach(function (entry) {
    Object.defineProperty(G, entry[0], { get: entry[1], configurable: false, enumerable: false });
});
['time', 'value', '$bm_rt'].forEach(function (name) {
    Object.defineProperty(G, name, { value: undefined, writable: true, configurable: false, enumerable: false });
});
// Nothing the engine starts with can keep a value from one evaluation for the next (so frames come out the same
// in any order): every global binding read-only (time, value and $bm_rt excepted: the engine sets them), and every
// object reachable from the globals, from the literals' prototypes and through prototypes frozen. An object already
// frozen has been visited (none is frozen before this).
(function () {
    var todo = [], names = Object.getOwnPropertyNames, describe = Object.getOwnPropertyDescriptor;
    var symbols = Object.getOwnPropertySymbols;
    function visit(o) {
        if (o === null || o === G || (typeof o !== 'object' && typeof o !== 'function') || Object.isFrozen(o)) return;
        Object.freeze(o);
        todo.push(o);
    }
    function visitMembers(o, keys) {
        for (var i = 0; i < keys.length; i++) {
            var d = describe(o, keys[i]);
            if (d) { visit(d.value); visit(d.get); visit(d.set); }
        }
    }
    names(G).forEach(function (name) {
        var d = describe(G, name);
        if (name !== 'time' && name !== 'value' && name !== '$bm_rt' && d.configurable)
            Object.defineProperty(G, name, 'value' in d ? { writable: false, configurable: false } : { configurable: false });
    });
    visitMembers(G, names(G));
    if (symbols) visitMembers(G, symbols(G));
    [[], '', 0, true, /x/, function () {}].forEach(function (literal) { visit(Object.getPrototypeOf(literal)); });
    while (todo.length > 0) {
        var o = todo.pop();
        visit(Object.getPrototypeOf(o));
        visitMembers(o, names(o));
        if (symbols) visitMembers(o, symbols(o));
    }
})();
[thisProperty, thisComp, thisLayer, Math, JSON, Object, Object.prototype, Array, Array.prototype, String,
 String.prototype, Number, Number.prototype, Boolean, Boolean.prototype, Function, Function.prototype, Error,
 Error.prototype, TypeError, TypeError.prototype, RangeError, RangeError.prototype, ReferenceError,
 ReferenceError.prototype, SyntaxError, SyntaxError.prototype,
 Object.getPrototypeOf(/x/)].forEach(function (o) { Object.freeze(o); });

var baseline = {};
Object.getOwnPropertyNames(G).forEach(function (name) { baseline[name] = true; });
Object.freeze(baseline);

// After each evaluation: the globals it made go, so that the next sees only the builtins. The builtins are not
// enumerable, so a for-in sees only what expressions made with var or by assigning; `all` (the C side saw the
// global object's property table grow) looks at every own name, which costs more.
// Gives true when the environment cannot be made the builtins' alone again (a global that cannot be deleted, time,
// value or $bm_rt made read-only): the C side then throws the heap away, and the next evaluation starts afresh.
function cleanup(all) {
    var tainted = false;
    for (var name in G) if (baseline[name] !== true && !delete G[name]) tainted = true;
    if (all) {
        var names = Object.getOwnPropertyNames(G);
        for (var i = 0; i < names.length; i++) if (baseline[names[i]] !== true && !delete G[names[i]]) tainted = true;
    }
    // Read-only now if a value of the engine's own does not stick (no expression can hold `unset`).
    G.time = unset; G.value = unset; G.$bm_rt = unset;
    if (G.time !== unset || G.value !== unset || G.$bm_rt !== unset) tainted = true;
    return tainted;
}
var unset = Object.freeze({});
function begin(time, fr, w, h, dur, index, inP, outP, nL, layerName, prop, valueArr) {
    S.time = time; S.fr = fr > 0 ? fr : 30; S.w = w; S.h = h; S.dur = dur; S.index = index; S.inP = inP;
    S.outP = outP; S.nL = nL; S.layerName = layerName; S.prop = prop; S.keys = null;
    S.valueArr = valueArr.length ? valueArr : [0];
    S.value = scalar(S.valueArr);
    S.seed = -1;
    S.rngReady = false;
    G.time = S.time;
    G.value = S.value;
    G.$bm_rt = undefined;
    // An earlier expression can have made $bm_rt read-only (writable: false is the one change a non-configurable
    // property allows): then its old value is no answer.
    S.bmUsable = G.$bm_rt === undefined;
}
function end(completion) {
    var result = S.bmUsable ? G.$bm_rt : undefined;
    return result !== undefined ? result : completion;
}
return { begin: begin, end: end, cleanup: cleanup };
}; })(this)
"""#
