// A faithful port of the HowToRTS flow-field pipeline ("Flow Fields: Line of Sight",
// 9-flow-field-improvements-again), kept as the benchmark baseline for tilenav's fields.
//
// What is the tutorial's: the grid layout (arrays of columns, dijkstraGrid[x][y]), the
// immutable Vector2 objects, obstacles as Number.MAX_VALUE, the breadth-first "Dijkstra grid"
// over straight neighbours (left, up, right, down) with an index-walked toVisit list,
// calculateLos() evaluated on every visited node in the same sweep, and generateFlowField():
// cells with line of sight point straight at the end, the others at the neighbour (8 ways,
// no corner cutting, order left, left-up, up, up-right, right, right-down, down, down-left)
// with the lowest distance. What is ours: reading a Moving AI .map (or "open:WxH"), the goal
// from the command line, and the timing loop.
//
// usage: node bench/tutorial_flowfield.js MAP GX GY [REPS]
//   prints: js width=W height=H reachable=N los=L median_ms=X min_ms=Y cpu_median_ms=..
//           cpu_min_ms=.. reps=R
'use strict';
const fs = require('fs');

function Vector2(x, y) {
	this.x = x;
	this.y = y;
}
Vector2.prototype.length = function () {
	return Math.sqrt(this.x * this.x + this.y * this.y);
};
Vector2.prototype.normalize = function () {
	var length = this.length();
	return new Vector2(this.x / length, this.y / length);
};
Vector2.prototype.minus = function (other) {
	return new Vector2(this.x - other.x, this.y - other.y);
};
Vector2.prototype.plus = function (other) {
	return new Vector2(this.x + other.x, this.y + other.y);
};
Vector2.zero = new Vector2(0, 0);

var gridWidth, gridHeight, obstacles, pathEnd;
var dijkstraGrid, losGrid, flowField;

function straightNeighboursOf(v) {
	var res = [];
	if (v.x > 0) {
		res.push(new Vector2(v.x - 1, v.y));
	}
	if (v.y > 0) {
		res.push(new Vector2(v.x, v.y - 1));
	}
	if (v.x < gridWidth - 1) {
		res.push(new Vector2(v.x + 1, v.y));
	}
	if (v.y < gridHeight - 1) {
		res.push(new Vector2(v.x, v.y + 1));
	}
	return res;
}

function isValid(x, y) {
	return x >= 0 && y >= 0 && x < gridWidth && y < gridHeight && dijkstraGrid[x][y] != Number.MAX_VALUE;
}

function allNeighboursOf(v) {
	var res = [],
		x = v.x,
		y = v.y;
	var up = isValid(x, y - 1),
		down = isValid(x, y + 1),
		left = isValid(x - 1, y),
		right = isValid(x + 1, y);
	//We test each straight direction, then subtest the next one clockwise
	if (left) {
		res.push(new Vector2(x - 1, y));
		//left up
		if (up && isValid(x - 1, y - 1)) {
			res.push(new Vector2(x - 1, y - 1));
		}
	}
	if (up) {
		res.push(new Vector2(x, y - 1));
		//up right
		if (right && isValid(x + 1, y - 1)) {
			res.push(new Vector2(x + 1, y - 1));
		}
	}
	if (right) {
		res.push(new Vector2(x + 1, y));
		//right down
		if (down && isValid(x + 1, y + 1)) {
			res.push(new Vector2(x + 1, y + 1));
		}
	}
	if (down) {
		res.push(new Vector2(x, y + 1));
		//down left
		if (left && isValid(x - 1, y + 1)) {
			res.push(new Vector2(x - 1, y + 1));
		}
	}
	return res;
}

function calculateLos(at, pathEnd) {
	var xDif = pathEnd.x - at.x;
	var yDif = pathEnd.y - at.y;
	var xDifAbs = Math.abs(xDif);
	var yDifAbs = Math.abs(yDif);
	var hasLos = false;
	var xDifOne = Math.sign(xDif);
	var yDifOne = Math.sign(yDif);
	//Check the direction we are furtherest from the destination on (or both if equal)
	// If it has LOS then we might
	//Check in the x direction
	if (xDifAbs >= yDifAbs) {
		if (losGrid[at.x + xDifOne][at.y]) {
			hasLos = true;
		}
	}
	//Check in the y direction
	if (yDifAbs >= xDifAbs) {
		if (losGrid[at.x][at.y + yDifOne]) {
			hasLos = true;
		}
	}
	//If we are not a straight line vertically/horizontally to the exit
	if (yDifAbs > 0 && xDifAbs > 0) {
		//If the diagonal doesn't have LOS, we don't
		if (!losGrid[at.x + xDifOne][at.y + yDifOne]) {
			hasLos = false;
		} else if (yDifAbs === xDifAbs) {
			//If we are an exact diagonal and either straight direction is a wall, we don't have LOS
			if (dijkstraGrid[at.x + xDifOne][at.y] === Number.MAX_VALUE || dijkstraGrid[at.x][at.y + yDifOne] === Number.MAX_VALUE) {
				hasLos = false;
			}
		}
	}
	//It's a definite now
	losGrid[at.x][at.y] = hasLos;
}

function generateDijkstraGrid() {
	//Generate an empty grid, set all places as weight null, which will stand for unvisited
	dijkstraGrid = new Array(gridWidth);
	losGrid = new Array(gridWidth);
	for (var x = 0; x < gridWidth; x++) {
		var arr = new Array(gridHeight);
		var arr2 = new Array(gridHeight);
		for (var y = 0; y < gridHeight; y++) {
			arr[y] = null;
			arr2[y] = false;
		}
		dijkstraGrid[x] = arr;
		losGrid[x] = arr2;
	}
	//Set all places where obstacles are as being weight MAXINT, which will stand for not able to go here
	for (var i = 0; i < obstacles.length; i++) {
		var t = obstacles[i];
		dijkstraGrid[t.x][t.y] = Number.MAX_VALUE;
	}
	//flood fill out from the end point
	pathEnd.distance = 0;
	dijkstraGrid[pathEnd.x][pathEnd.y] = 0;
	losGrid[pathEnd.x][pathEnd.y] = true;
	var toVisit = [pathEnd];
	//for each node we need to visit, starting with the pathEnd
	for (i = 0; i < toVisit.length; i++) {
		//Calculate if we have LOS
		//Only need to see if don't have LOS if we aren't the end
		if (toVisit[i] !== pathEnd) {
			calculateLos(toVisit[i], pathEnd);
		}
		var neighbours = straightNeighboursOf(toVisit[i]);
		//for each neighbour of this node (only straight line neighbours, not diagonals)
		for (var j = 0; j < neighbours.length; j++) {
			var n = neighbours[j];
			//We will only ever visit every node once as we are always visiting nodes in the most efficient order
			if (dijkstraGrid[n.x][n.y] === null) {
				n.distance = toVisit[i].distance + 1;
				dijkstraGrid[n.x][n.y] = n.distance;
				toVisit.push(n);
			}
		}
	}
}

function generateFlowField() {
	var x, y;
	//Generate an empty grid, set all places as Vector2.zero, which will stand for no good direction
	flowField = new Array(gridWidth);
	for (x = 0; x < gridWidth; x++) {
		var arr = new Array(gridHeight);
		for (y = 0; y < gridHeight; y++) {
			arr[y] = Vector2.zero;
		}
		flowField[x] = arr;
	}
	//for each grid square
	for (x = 0; x < gridWidth; x++) {
		for (y = 0; y < gridHeight; y++) {
			//Obstacles have no flow value
			if (dijkstraGrid[x][y] == Number.MAX_VALUE) {
				continue;
			}
			if (losGrid[x][y]) {
				//Just point straight at the destination
				var p = pathEnd.minus(new Vector2(x, y));
				flowField[x][y] = p.normalize();
				continue;
			}
			var pos = new Vector2(x, y);
			var neighbours = allNeighboursOf(pos);
			//Go through all neighbours and find the one with the lowest distance
			var min = null;
			var minDist = 0;
			for (var i = 0; i < neighbours.length; i++) {
				var n = neighbours[i];
				var dist = dijkstraGrid[n.x][n.y] - dijkstraGrid[pos.x][pos.y];
				if (dist < minDist) {
					min = n;
					minDist = dist;
				}
			}
			//If we found a valid neighbour, point in its direction
			if (min != null) {
				flowField[x][y] = min.minus(pos).normalize();
			}
		}
	}
}

// ---- harness (ours) ------------------------------------------------------------------------

function loadMap(path) {
	var m = /^open:(\d+)x(\d+)$/.exec(path);
	if (m) {
		return { w: +m[1], h: +m[2], rows: null };
	}
	var lines = fs.readFileSync(path, 'utf8').split(/\r?\n/);
	var h = 0, w = 0, at = 0;
	for (; at < lines.length; at++) {
		var l = lines[at].trim();
		if (l.startsWith('height')) h = parseInt(l.split(/\s+/)[1], 10);
		else if (l.startsWith('width')) w = parseInt(l.split(/\s+/)[1], 10);
		else if (l === 'map') { at++; break; }
	}
	return { w: w, h: h, rows: lines.slice(at, at + h) };
}

function main() {
	var args = process.argv.slice(2);
	if (args.length < 3) {
		console.error('usage: node tutorial_flowfield.js MAP GX GY [REPS]');
		process.exit(2);
	}
	var map = loadMap(args[0]);
	var gx = parseInt(args[1], 10), gy = parseInt(args[2], 10);
	var reps = args.length > 3 ? parseInt(args[3], 10) : 5;
	gridWidth = map.w;
	gridHeight = map.h;
	obstacles = [];
	if (map.rows) {
		for (var y = 0; y < map.h; y++) {
			for (var x = 0; x < map.w; x++) {
				var c = map.rows[y][x];
				if (c !== '.' && c !== 'G' && c !== 'S') obstacles.push(new Vector2(x, y));
			}
		}
	}
	var times = [], cpu = [];
	for (var r = 0; r < reps; r++) {
		pathEnd = new Vector2(gx, gy);
		var c0 = process.cpuUsage();
		var t0 = process.hrtime.bigint();
		generateDijkstraGrid();
		generateFlowField();
		var t1 = process.hrtime.bigint();
		var c1 = process.cpuUsage(c0);
		times.push(Number(t1 - t0) / 1e6);
		cpu.push((c1.user + c1.system) / 1e3);
	}
	var reach = 0, los = 0;
	for (var xx = 0; xx < gridWidth; xx++) {
		for (var yy = 0; yy < gridHeight; yy++) {
			var d = dijkstraGrid[xx][yy];
			if (d !== null && d !== Number.MAX_VALUE) reach++;
			if (losGrid[xx][yy]) los++;
		}
	}
	function median(v) {
		var s = v.slice().sort(function (a, b) { return a - b; });
		return s.length % 2 ? s[(s.length - 1) / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
	}
	function min(v) {
		return Math.min.apply(null, v);
	}
	// cpu_*: process CPU time (all threads, so garbage collection on helper threads counts)
	console.log('js width=' + gridWidth + ' height=' + gridHeight + ' reachable=' + reach + ' los=' + los +
		' median_ms=' + median(times).toFixed(3) + ' min_ms=' + min(times).toFixed(3) +
		' cpu_median_ms=' + median(cpu).toFixed(3) + ' cpu_min_ms=' + min(cpu).toFixed(3) + ' reps=' + reps);
}

main();
