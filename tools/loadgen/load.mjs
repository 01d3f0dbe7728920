// The load generator of `gemtable bench server --generator node` (issue 25): the bot phones of
// src/gemtable/bench/load.py, the same conversation and the same measurement, on Node's `ws` client, so that
// the phones are not what limits a run.  Driven by the Python benchmark, which measures the server:
//
//   node load.mjs CONFIG.json      (the benchmark writes CONFIG; see bench/node.py)
//   stdout, one JSON object a line:  {"event": "ready", ...}  then  {"event": "done", "windows": {...}}
//   stdin, one JSON object a line:   {"phases": [[pace, switch, start, end], ...]}  (CLOCK_MONOTONIC seconds)
//
// Times are CLOCK_MONOTONIC seconds (process.hrtime, as Python's time.monotonic), so that the phases the
// benchmark sets and the server CPU it samples line up with what the phones see.  Every phone is one WebSocket
// from its table's loopback address, offering permessage-deflate as a browser does; a phone answers a decision
// with the game's honest move (the JavaScript module its probes name in NODE_MOVE; eager at the instant pace, at
// the human pace after 0.5-4 s), and never sends faster than a little under the server's per-connection limit.

import fs from "node:fs";
import http from "node:http";
import readline from "node:readline";
import { pathToFileURL } from "node:url";
import WebSocket from "ws";

const cfg = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const now = () => Number(process.hrtime.bigint()) / 1e9;
const say = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(cfg.seed);

const HUMAN_DELAY = [0.5, 4.0];
const START = JSON.stringify({ type: "start", v: 2 });
const CHOICES = {};
const choice = (move) => (CHOICES[move] ??= JSON.stringify({ type: "choose", v: 2, move, decision: null }));

const load = {
  pace: "human", playing: false, stopping: false,
  received: 0, reveals: 0, deadlineReveals: 0, throttled: 0, errors: 0, errorCodes: {},
  doneAt: [], latency: [], lagAt: [], lag: [], snapshots: {},
};

function error(code) {
  load.errors += 1;
  load.errorCodes[code] = (load.errorCodes[code] || 0) + 1;
}

function delay() {
  return load.pace === "instant" ? 0 : HUMAN_DELAY[0] + random() * (HUMAN_DELAY[1] - HUMAN_DELAY[0]);
}

// The game's own honest move: the module its probes name (NODE_MOVE), beside them in the game's folder.
const { honestMove: gameMove } = await import(pathToFileURL(cfg.move_module).href);
const honestMove = (view, moves) => gameMove(view, moves, random, load.pace === "instant");

class Table {
  constructor(spec) {
    Object.assign(this, spec); // index, address, target {host, port}, code
    this.phones = [];
    this.tracks = new Map();
  }
  track(key) {
    let t = this.tracks.get(key);
    if (!t) this.tracks.set(key, (t = { lastSend: 0, sends: 0, passed: 0, lastRecv: 0, aborted: false }));
    return t;
  }
  sent(key, at) {
    const t = this.track(key);
    t.sends += 1;
    t.lastSend = Math.max(t.lastSend, at);
  }
  passed(key, at) {
    const t = this.track(key);
    t.passed += 1;
    t.lastRecv = Math.max(t.lastRecv, at);
    if (t.passed >= this.phones.length) {
      this.tracks.delete(key);
      load.reveals += 1;
      if (t.aborted || t.sends === 0) load.deadlineReveals += 1;
      else {
        load.doneAt.push(t.lastRecv);
        load.latency.push(t.lastRecv - t.lastSend);
      }
    }
  }
}

class Phone {
  constructor(table, index) {
    this.table = table;
    this.index = index;
    this.seen = null;
    this.answered = null;
    this.timer = null;
    this.startedGame = 0;
    this.closed = false;
    this.rate = cfg.messages_per_second * cfg.send_share;
    this.burst = cfg.message_burst / 2;
    this.tokens = this.burst;
    this.stamp = 0;
  }
  get host() { return this.index === 0; }

  connect() {
    const target = cfg.targets.length ? cfg.targets[(this.table.index + this.index) % cfg.targets.length] : this.table.target;
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://${target.host}:${target.port}/ws`, {
        localAddress: this.table.addresses[Math.floor(this.index / cfg.people_per_address)],
        perMessageDeflate: cfg.deflate,
        maxPayload: 1 << 20,
        handshakeTimeout: 60000,
      });
      this.ws = ws;
      ws.on("open", resolve);
      ws.on("error", (e) => { if (ws.readyState === WebSocket.CONNECTING) reject(e); });
      ws.on("message", (data) => this.receive(data));
      ws.on("close", () => { this.closed = true; if (!load.stopping) error("closed"); });
    });
  }

  join() {
    return new Promise((resolve, reject) => {
      this.welcomed = resolve;
      setTimeout(() => reject(new Error("no welcome within 60 s")), 60000).unref();
      this.ws.send(JSON.stringify({ type: "join", v: 2, code: this.table.code, name: `bot${this.table.index}-${this.index}` }));
    });
  }

  receive(data) {
    // Stamped when it arrives, read once every message that arrived with it is stamped too (setImmediate runs after
    // the callbacks of every socket ready now): one process plays thousands of phones, and reading the states of a
    // table's other phones first (a JSON.parse each) is this process's time, not the server's latency.
    const at = now();
    setImmediate(() => this.read(data, at));
  }

  read(data, at) {
    load.received += 1;
    let message;
    try { message = JSON.parse(data); } catch { error("undecodable"); return; }
    const kind = message.type;
    if (kind === "state" && message.table) this.state(message.table, at);
    else if (kind === "welcome") { if (this.welcomed) { this.welcomed(); this.welcomed = null; } }
    else if (kind === "error") error(String(message.code));
    else if (kind === "replaced") error("replaced");
  }

  state(view, at) {
    const playing = view.phase === "playing" && view.state != null;
    const key = playing ? `${view.game_number}:${view.decision}` : null;
    if (this.seen !== null && key !== this.seen) {
      if (this.timer !== null) { // the deadline revealed before this phone answered
        clearTimeout(this.timer);
        this.timer = null;
        this.table.track(this.seen).aborted = true;
      }
      this.table.passed(this.seen, at);
    }
    this.seen = key;
    if (!load.playing) return;
    const me = view.me;
    if (key !== null && me && me.moves && me.moves.length && this.answered !== key) {
      this.answered = key;
      const text = choice(honestMove(view.state, me.moves));
      this.timer = this.later(delay(), () => this.sendChoice(key, text));
    } else if (view.phase === "results" && this.host && this.startedGame !== view.game_number) {
      this.startedGame = view.game_number;
      this.later(delay(), () => this.sendStart());
    }
  }

  later(seconds, send) {
    const t = now();
    const wanted = t + seconds;
    const at = this.reserve(wanted);
    if (at > wanted + 1e-6) load.throttled += 1;
    if (at <= t) { send(); return null; }
    return setTimeout(send, (at - t) * 1000);
  }

  reserve(wanted) { // the phone's token bucket, a little under the server's
    if (this.stamp === 0) this.stamp = wanted;
    let tokens = Math.min(this.burst, this.tokens + Math.max(0, wanted - this.stamp) * this.rate);
    let at = Math.max(wanted, this.stamp);
    if (tokens < 1) { at += (1 - tokens) / this.rate; tokens = 1; }
    this.tokens = tokens - 1;
    this.stamp = at;
    return at;
  }

  sendChoice(key, text) {
    this.timer = null;
    if (this.closed || load.stopping) return;
    this.table.sent(key, now());
    this.ws.send(text, (e) => { if (e && !load.stopping) error(`send:${e.name}`); });
  }

  sendStart() {
    if (!this.closed && !load.stopping) this.ws.send(START);
  }
}

// No start countdown, no reveal's beat, no last call, no ready check: the load measures the server's work.
function createTable(table) {
  const body = JSON.stringify({ game: cfg.game, seconds: cfg.decision_seconds, pause: cfg.pause, countdown: 0, beat: 0, last_call: 0, ready_check: false });
  const target = cfg.targets.length ? cfg.targets[table.index % cfg.targets.length] : table.target;
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: target.host, port: target.port, method: "POST", path: "/api/tables", localAddress: table.addresses[0],
        headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) }, timeout: 30000 },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => {
          if (res.statusCode !== 201) reject(new Error(`creating a table from ${table.addresses[0]} failed: HTTP ${res.statusCode} ${text}`));
          else resolve(JSON.parse(text).code);
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function pool(items, size, work) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

function connections(tables) {
  let n = 0;
  for (const t of tables) for (const p of t.phones) if (!p.closed) n += 1;
  return n;
}

function cpu() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

function snapshot(tables, name) {
  load.snapshots[name] = {
    at: now(), received: load.received, reveals: load.reveals, deadlineReveals: load.deadlineReveals,
    errors: load.errors, throttled: load.throttled, cpu: cpu(), connections: connections(tables),
    errorCodes: { ...load.errorCodes },
  };
}

function window(pace) {
  const s = load.snapshots;
  const sw = s[`${pace}:switch`], first = s[`${pace}:start`], last = s[`${pace}:end`];
  const latencies = [], lags = [];
  load.doneAt.forEach((at, i) => { if (first.at <= at && at <= last.at) latencies.push(load.latency[i]); });
  load.lagAt.forEach((at, i) => { if (first.at <= at && at <= last.at) lags.push(load.lag[i]); });
  const codes = {};
  for (const [code, count] of Object.entries(last.errorCodes)) {
    const before = sw.errorCodes[code] || 0;
    if (count > before) codes[code] = count - before;
  }
  return {
    seconds: last.at - first.at, received: last.received - first.received, reveals: last.reveals - first.reveals,
    deadline_reveals: last.deadlineReveals - first.deadlineReveals, errors: last.errors - sw.errors,
    error_codes: codes, throttled: last.throttled - first.throttled, cpu: last.cpu - first.cpu,
    connections: last.connections, latencies, lags,
  };
}

const sleepUntil = (when) => new Promise((r) => setTimeout(r, Math.max(0, (when - now()) * 1000)));

async function main() {
  const began = now();
  const tables = cfg.tables.map((spec) => new Table(spec));
  if (cfg.rooms_by_join) for (const t of tables) t.code = `R${t.index}`;
  else await pool(tables, 8, async (t) => { t.code = await createTable(t); });
  for (const t of tables) t.phones = Array.from({ length: cfg.players }, (_, i) => new Phone(t, i));
  await pool(tables, 64, async (t) => {
    for (const p of t.phones) await p.connect();
    await t.phones[0].join(); // the first to join is the host
    await Promise.all(t.phones.slice(1).map((p) => p.join()));
  });
  say({ event: "ready", connections: connections(tables), setup_seconds: now() - began, codes: tables.map((t) => t.code) });

  const lines = readline.createInterface({ input: process.stdin });
  const { phases } = JSON.parse(await new Promise((r) => lines.once("line", r)));
  load.playing = true;
  let lagging = true;
  (async () => { // how late the event loop wakes a 20 ms sleeper
    while (lagging) {
      const before = now();
      await new Promise((r) => setTimeout(r, 20));
      const t = now();
      load.lagAt.push(t);
      load.lag.push(Math.max(0, t - before - 0.02));
    }
  })();
  for (const t of tables) { const host = t.phones[0]; host.startedGame = -1; host.later(0, () => host.sendStart()); }
  for (const [pace, sw, start, end] of phases) {
    await sleepUntil(sw);
    load.pace = pace;
    snapshot(tables, `${pace}:switch`);
    await sleepUntil(start);
    snapshot(tables, `${pace}:start`);
    await sleepUntil(end);
    snapshot(tables, `${pace}:end`);
  }
  lagging = false;
  load.stopping = true;
  load.playing = false;
  const windows = {};
  for (const [pace] of phases) windows[pace] = window(pace);
  say({ event: "done", windows });
  for (const t of tables) for (const p of t.phones) { if (p.timer) clearTimeout(p.timer); p.ws.terminate(); }
  lines.close();
}

main().catch((e) => { say({ event: "error", message: String(e && e.message || e) }); process.exit(1); });
