// One WebSocket to the server that comes back by itself: exponential backoff with
// jitter after a drop, an immediate retry when the phone wakes up or the network
// changes, and a heartbeat that notices a socket that silently died in sleep.

const PING_EVERY = 15000;
const DEAD_AFTER = 40000;
const CHECK_AFTER_WAKE = 4000;

export class Connection {
  /** onOpen(): say hello; onMessage(msg); onStatus('connecting' | 'open' | 'reconnecting' | 'stopped'). */
  constructor({ onOpen, onMessage, onStatus }) {
    this.onOpen = onOpen;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.attempts = 0;
    this.timer = null;
    this.stopped = false;
    this.lastSeen = 0;
    const url = new URL('/ws', location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    this.url = url.href;
    setInterval(() => this.heartbeat(), PING_EVERY);
    const wake = () => this.wake();
    document.addEventListener('visibilitychange', () => { if (!document.hidden) wake(); });
    addEventListener('online', wake);
    addEventListener('pageshow', (e) => { if (e.persisted) wake(); });
    addEventListener('offline', () => this.ws && this.ws.close());
  }

  start() {
    this.stopped = false;
    this.connect(this.attempts ? 'reconnecting' : 'connecting');
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
    this.onStatus('stopped');
  }

  get open() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  send(message) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify({ v: 2, ...message }));
    return true;
  }

  connect(status) {
    clearTimeout(this.timer);
    if (this.ws) {
      this.ws.onclose = this.ws.onmessage = this.ws.onopen = null;
      try { this.ws.close(); } catch { /* already closed */ }
    }
    this.onStatus(status);
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.attempts = 0;
      this.lastSeen = Date.now();
      this.onStatus('open');
      this.onOpen();
    };
    ws.onmessage = (event) => {
      this.lastSeen = Date.now();
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      if (message && message.type !== 'pong') this.onMessage(message);
    };
    ws.onclose = () => {
      if (this.ws !== ws || this.stopped) return;
      this.retry();
    };
  }

  retry() {
    this.onStatus('reconnecting');
    // Doubling to 3 s at most (3.75 with the jitter): a phone whose server restarted comes back inside the 5 s a
    // gone phone holds a reveal up (the server's GRACE), so a healthy phone is not sent to camp for its backoff.
    const delay = Math.min(this.soon ? 1000 : 3000, 400 * 2 ** this.attempts) * (0.75 + Math.random() * 0.5);
    this.attempts += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect('reconnecting'), delay);
  }

  heartbeat() {
    if (this.stopped || !this.open) return;
    if (Date.now() - this.lastSeen > DEAD_AFTER) {
      this.ws.close();
      this.retry();
      return;
    }
    this.send({ type: 'ping' });
  }

  /** Back from sleep or a network change (``soon``: a tap waits: then retry every second): retry at once, or
   *  check that the socket still answers. */
  wake(soon) {
    this.soon ||= soon;
    if (this.stopped) return;
    if (!this.open) {
      this.attempts = 0;
      this.connect('reconnecting');
      return;
    }
    const asked = Date.now();
    this.send({ type: 'ping' });
    setTimeout(() => {
      if (!this.stopped && this.lastSeen < asked) this.connect('reconnecting');
    }, CHECK_AFTER_WAKE);
  }
}
