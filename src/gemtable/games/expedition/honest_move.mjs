// The expedition's honest move (probes.py's honest_move), for the benchmark's Node generator
// (tools/loadgen/load.mjs): deeper whenever it may when eager; otherwise deeper four times in five while the path
// holds fewer than five cards, about half the time after.  `random` returns a number in [0, 1).
export function honestMove(view, moves, random, eager) {
  if (!moves.includes("deeper")) return moves[0];
  if (eager) return "deeper";
  const path = view && Array.isArray(view.path) ? view.path.length : 0;
  return random() < (path < 5 ? 0.8 : 0.45) ? "deeper" : "camp";
}
