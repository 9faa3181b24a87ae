seedRandom(5, true);
[random(10), gaussRandom(2, 4)]