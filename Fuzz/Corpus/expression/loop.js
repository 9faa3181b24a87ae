var a = [];
for (var i = 0; i < 10; i++) a.push(Math.sin(i));
clamp(a.reduce(function (s, x) { return s + x; }, 0), -1, 1)