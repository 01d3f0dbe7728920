// Protocol version 2 on the phone: a secret choice comes as a small `chosen` message, not a new state.
//
// Every table message (`state` or `chosen`) carries `seq`, numbered per connection from 1. A `chosen`
// applies to the state numbered `seq - 1`: the people it names are now shown as having chosen, and the
// phone that made the choice gets its own `choice`. Nothing else of the state changes (the clock runs on
// from the last state). A `chosen` whose number does not follow the last one means a message was lost:
// the page asks for the whole state (`sync`) and ignores `chosen` messages until it comes.
// gemtable.table.view.apply_choices is the same function on the server's side (the tests check both).

/** The state after a `chosen` message: a new object; the state given is left as it was. */
export function applyChosen(table, msg) {
  const marked = new Set(msg.people || []);
  const out = { ...table, people: table.people.map((p) => (marked.has(p.id) ? { ...p, chosen: true } : p)) };
  if (msg.choice !== undefined && msg.choice !== null && table.me) out.me = { ...table.me, choice: msg.choice };
  return out;
}

/** Keeps a connection's table messages in order. take(msg) answers what to do with one:
 *  'state' (show it), 'chosen' (apply it), 'sync' (a message was lost: ask for the whole state),
 *  or 'skip' (wait for the whole state already asked for). */
export class Sequence {
  constructor() {
    this.seq = 0;
    this.syncing = false;
    this.synced = false;
  }

  take(msg) {
    if (msg.type === 'state') {
      this.seq = msg.seq || 0;
      this.syncing = false;
      this.synced = true;
      return 'state';
    }
    if (this.syncing) return 'skip';
    if (!this.synced || msg.seq !== this.seq + 1) {
      this.syncing = true;
      return 'sync';
    }
    this.seq = msg.seq;
    return 'chosen';
  }

  /** A new connection: its numbers start again with its first state. */
  reset() {
    this.seq = 0;
    this.syncing = false;
    this.synced = false;
  }
}
