"use strict";
(function () {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const frames = data.frames;
  const last = frames.length - 1;
  const end = frames[last].k === "END" ? frames[last] : null;
  const names = data.names;
  const LEAGUES = { 1: "Wood 2", 2: "Wood 1", 3: "Bronze+" };
  const DIRS = [[1, -1, 0], [1, 0, -1], [0, 1, -1], [-1, 1, 0], [-1, 0, 1], [0, -1, 1]];
  const ARROWS = ["→", "↗", "↖", "←", "↙", "↘"];
  const TREE_R = [0.17, 0.32, 0.47, 0.64];
  const $ = (id) => document.getElementById(id);
  const ICONS = {
    first: "M2 2h2v12H2zM14 2v12L5 8z", prev: "M12 2v12L3 8z", play: "M4 2v12l10-6z",
    pause: "M3 2h4v12H3zM9 2h4v12H9z", next: "M4 2v12l9-6z", last: "M12 2h2v12h-2zM2 2v12l9-6z",
  };
  const icon = (name) => '<svg viewBox="0 0 16 16"><path d="' + ICONS[name] + '"></path></svg>';
  let index = 0;
  let timer = null;

  function pixel(cube) {
    return [Math.sqrt(3) * (cube[0] + cube[2] / 2), 1.5 * cube[2]];
  }
  const centres = data.cubes.map(pixel);

  function esc(text) {
    return String(text).replace(/[&<>"']/g, (c) => "&#" + c.charCodeAt(0) + ";");
  }
  function f2(v) { return v.toFixed(3); }

  function hexPoints(cx, cy, r) {
    const points = [];
    for (let i = 0; i < 6; i++) {
      const a = Math.PI / 180 * (60 * i + 30);
      points.push(f2(cx + r * Math.cos(a)) + "," + f2(cy + r * Math.sin(a)));
    }
    return points.join(" ");
  }

  function drawCells() {
    let out = "";
    centres.forEach(([x, y], c) => {
      const r = data.richness[c];
      out += '<polygon class="cell r' + r + '" data-cell="' + c + '" points="' + hexPoints(x, y, 0.98) +
        '"></polygon>' +
        '<text class="cellno" x="' + f2(x) + '" y="' + f2(y + 0.78) + '">' + c + "</text>";
    });
    $("cells").innerHTML = out;
  }

  function drawShades(frame) {
    $("shades").innerHTML = frame.shadows.map(([c, s]) => {
      const [x, y] = centres[c];
      return '<polygon class="shade" data-shadow="' + s + '" fill-opacity="' + (0.06 + 0.08 * s).toFixed(2) +
        '" points="' + hexPoints(x, y, 0.98) + '"></polygon>';
    }).join("");
  }

  function drawTrees(frame) {
    $("trees").innerHTML = frame.trees.map(([c, size, owner, dormant]) => {
      const [x, y] = centres[c];
      const r = TREE_R[size];
      let out = '<g data-cell="' + c + '" data-size="' + size + '" data-owner="' + owner + '" data-dormant="' +
        dormant + '"><circle class="tree o' + owner + '" cx="' + f2(x) + '" cy="' + f2(y) + '" r="' + r + '"></circle>';
      if (size > 0) out += '<text class="size" x="' + f2(x) + '" y="' + f2(y) + '">' + size + "</text>";
      if (dormant) {
        out += '<circle class="dormant" cx="' + f2(x) + '" cy="' + f2(y) + '" r="' + (r + 0.1) + '"></circle>' +
          '<text class="zz" x="' + f2(x + 0.38) + '" y="' + f2(y - 0.38) + '">z</text>';
      }
      return out + "</g>";
    }).join("");
  }

  function drawSun(frame) {
    const d = DIRS[frame.orientation];
    const [dx, dy] = pixel(d);
    const len = Math.hypot(dx, dy);
    const ux = dx / len, uy = dy / len;
    const sx = -ux * 6.7, sy = -uy * 6.7;
    let out = "";
    for (const off of [-0.4, 0, 0.4]) {
      const px = sx - uy * off, py = sy + ux * off;
      out += '<line x1="' + f2(px + ux * 0.46) + '" y1="' + f2(py + uy * 0.46) + '" x2="' + f2(px + ux * 0.72) +
        '" y2="' + f2(py + uy * 0.72) + '"></line>';
    }
    out += '<circle cx="' + f2(sx) + '" cy="' + f2(sy) + '" r="0.38"></circle>';
    $("sun").innerHTML = out;
    $("sun").setAttribute("data-orientation", frame.orientation);
  }

  function drawMarks(frame) {
    let out = "";
    const ring = (c, cls) => {
      const [x, y] = centres[c];
      out += '<polygon class="mark ' + cls + '" points="' + hexPoints(x, y, 0.86) + '"></polygon>';
    };
    (frame.moves || []).forEach((move, p) => {
      if (!move || move[2] !== null || move[0] === null) return;
      const m = /^(GROW|COMPLETE|SEED) (\d+)(?: (\d+))?/.exec(move[0]);
      if (!m) return;
      const a = Number(m[2]), b = m[3] === undefined ? -1 : Number(m[3]);
      if (m[1] === "SEED" && a < centres.length && b >= 0 && b < centres.length) {
        if (frame.conflict !== b) ring(b, "o" + p);
        const [x1, y1] = centres[a], [x2, y2] = centres[b];
        out += '<line class="mark o' + p + '" x1="' + f2(x1) + '" y1="' + f2(y1) + '" x2="' + f2(x2) + '" y2="' +
          f2(y2) + '" stroke-opacity="0.6"></line>';
      } else if (m[1] !== "SEED" && a < centres.length) {
        ring(a, "o" + p);
      }
    });
    if (frame.conflict !== null && frame.conflict !== undefined) ring(frame.conflict, "both");
    $("marks").innerHTML = out;
  }

  function who(p) {
    return '<span class="who' + p + '">' + esc(names[p]) + "</span>";
  }

  function disqualification(p, frame) {
    if (!end) return null;
    for (const entry of end.deactivated) {
      if (entry.player === p && entry.turn <= frame.turn) return entry;
    }
    return null;
  }

  function logLines(frame) {
    const lines = [];
    if (frame.k === "START") {
      lines.push("Game start: " + frame.trees.length + " trees on the board, 20 nutrients. Press → or ▶.");
    } else if (frame.k === "GATHERING") {
      lines.push("Day " + frame.day + " begins: the sun shines towards " + ARROWS[frame.orientation] + " (" +
        frame.orientation + "); trees wake up.");
      for (const p of [0, 1]) lines.push(who(p) + " harvests +" + frame.gained[p] + " sun");
    } else if (frame.k === "ACTIONS") {
      frame.moves.forEach((move, p) => {
        if (!move) {
          lines.push(who(p) + ' <span style="color:#6b7785">' + (frame.players[p][3] ? "asleep" : "out") + "</span>");
          return;
        }
        const [output, action, error, dq] = move;
        let line = who(p) + " " + (output === null ? "<i>no answer</i>" : "<code>" + esc(output) + "</code>");
        if (dq) line += ' <span class="dq">disqualified</span> <span class="err">' + esc(error) + "</span>";
        else if (error !== null) line += ' <span class="err">rejected: ' + esc(error) + "</span>";
        else if (action === "WAIT") line += " (goes to sleep)";
        lines.push(line);
      });
      if (frame.conflict !== null) {
        lines.push('<span class="err">Seed conflict on cell ' + frame.conflict + ": no seed is planted.</span>");
      }
    } else if (frame.k === "SUN_MOVE") {
      lines.push(frame.day >= data.max_days ? "Day " + frame.day_before + " ends: the last day is over." :
        "Day " + frame.day_before + " ends; the sun moves towards " + ARROWS[frame.orientation] + " (" +
        frame.orientation + ").");
    } else if (frame.k === "END") {
      lines.push("<b>Game over</b> after " + frame.turn + " frames.");
      for (const p of [0, 1]) {
        const dq = disqualification(p, frame);
        lines.push(who(p) + ": " + (dq ? "disqualified at frame " + dq.turn + " (" + esc(dq.reason) + "), score -1" :
          frame.before_bonus[p] + " points + " + frame.sun_bonus[p] + " for sun + " + frame.tree_bonus[p] +
          " for trees = <b>" + frame.final[p] + "</b>"));
      }
    }
    return lines;
  }

  function show(i) {
    index = Math.max(0, Math.min(last, i));
    const frame = frames[index];
    drawShades(frame);
    drawTrees(frame);
    drawMarks(frame);
    drawSun(frame);
    const board = $("board");
    board.setAttribute("data-frame", index);
    board.setAttribute("data-trees", frame.trees.length);
    board.setAttribute("data-day", frame.day);
    for (const p of [0, 1]) {
      const [sun, score, waiting, active] = frame.players[p];
      const shown = frame.k === "END" ? frame.final[p] : score;
      $("score-" + p).textContent = shown;
      $("sun-" + p).textContent = sun;
      $("trees-" + p).textContent = frame.trees.filter((t) => t[2] === p).length;
      const dq = disqualification(p, frame);
      $("status-" + p).textContent = dq ? "disqualified at frame " + dq.turn + ": " + dq.reason :
        !active ? "disqualified" : frame.k !== "END" && waiting ? "asleep until the next day" : "";
      const card = $("player-" + p);
      card.classList.toggle("out", !active);
      card.classList.toggle("won", frame.k === "END" && frame.winner === p);
      card.setAttribute("data-active", active ? "true" : "false");
    }
    const winner = $("winner");
    if (frame.k === "END") {
      const w = frame.winner;
      winner.textContent = w === null ? "Draw " + frame.final[0] + " – " + frame.final[1] :
        "Winner: " + names[w] + " (" + frame.final[w] + " – " + frame.final[1 - w] + ")";
      winner.setAttribute("data-winner", frame.winner === null ? "draw" : String(frame.winner));
    } else {
      winner.textContent = "";
      winner.setAttribute("data-winner", "");
    }
    $("day").textContent = Math.min(frame.day, data.max_days) + " / " + data.max_days;
    $("nutrients").textContent = frame.nutrients;
    $("orientation").textContent = ARROWS[frame.orientation] + " " + frame.orientation;
    $("log").innerHTML = logLines(frame).map((line) => "<div>" + line + "</div>").join("");
    $("frame-index").textContent = index;
    $("frame-kind").textContent = frame.k === "START" ? "start" : "turn " + frame.turn + " · " + frame.k;
    $("slider").value = index;
    document.body.setAttribute("data-frame", index);
    if (!window.__noHash) {
      try { history.replaceState(null, "", "#frame=" + index); } catch (e) { window.__noHash = true; }
    }
  }

  function pause() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    $("btn-play").innerHTML = icon("play");
    document.body.setAttribute("data-playing", "false");
  }
  function tick() {
    if (index >= last) { pause(); return; }
    show(index + 1);
    timer = setTimeout(tick, Number($("speed").value));
  }
  function play() {
    if (index >= last) show(0);
    $("btn-play").innerHTML = icon("pause");
    document.body.setAttribute("data-playing", "true");
    timer = setTimeout(tick, Number($("speed").value));
  }
  function toggle() { if (timer === null) play(); else pause(); }
  function go(i) { pause(); show(i); }

  function fromHash() {
    const hash = decodeURIComponent(location.hash.replace(/^#/, ""));
    if (hash === "last") return last;
    const m = /^frame=(\d+)$/.exec(hash);
    return m ? Number(m[1]) : null;
  }

  const buttons = {
    "btn-first": () => go(0), "btn-prev": () => go(index - 1), "btn-play": toggle,
    "btn-next": () => go(index + 1), "btn-last": () => go(last),
  };
  for (const [id, action] of Object.entries(buttons)) {
    $(id).addEventListener("click", (e) => { e.currentTarget.blur(); action(); });
  }
  $("slider").addEventListener("input", (e) => go(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const keys = {
      ArrowLeft: () => go(index - 1), ArrowRight: () => go(index + 1), " ": toggle,
      Home: () => go(0), End: () => go(last),
    };
    if (!(e.key in keys)) return;
    e.preventDefault();
    keys[e.key]();
  });
  window.addEventListener("hashchange", () => {
    const i = fromHash();
    if (i !== null && i !== index) go(i);
  });

  for (const name of ["first", "prev", "play", "next", "last"]) $("btn-" + name).innerHTML = icon(name);
  $("slider").max = last;
  $("frame-last").textContent = last;
  $("name-0").textContent = names[0];
  $("name-1").textContent = names[1];
  $("name-0").title = names[0];
  $("name-1").title = names[1];
  $("subtitle").textContent = (data.seed === null || data.seed === undefined ? "" : "seed " + data.seed + " · ") +
    "league " + data.league + " (" + (LEAGUES[data.league] || "?") + ") · " + data.max_days + " days · " +
    frames.length + " frames";
  document.body.setAttribute("data-frames", frames.length);
  drawCells();
  const start = fromHash();
  show(start === null ? 0 : start);
  document.body.setAttribute("data-ready", "true");
})();
