var k = nearestKey(time);
[k.time, key(numKeys).value[1], velocityAtTime(0.5)[0]]