// The TV's sounds: a blip for a new card, a chime for a reveal, a rumble for a collapse.
// Made with WebAudio (no audio files). A visible switch in the TV's top bar turns them on
// or off (remembered in localStorage); when the browser blocks sound until someone
// touches the page, the switch says "Tap for sound" and a tap starts it.

import { $ } from './dom.js';
import { t, onLang } from './i18n.js';

const KEY = 'gemtable.tv.sound';
let ctx = null;
let btn = null;
let unblocked = -Infinity; // when the sound last started by itself, not by a tap on the switch
const LATE_TAP_MS = 1500;

function wanted() {
  try { return localStorage.getItem(KEY) !== 'off'; } catch { return true; }
}

function remember(on) {
  try { localStorage.setItem(KEY, on ? 'on' : 'off'); } catch { /* private mode */ }
}

function context() {
  if (!ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    ctx = new Ctx();
    ctx.addEventListener('statechange', update);
  }
  return ctx;
}

function running() {
  return Boolean(ctx) && ctx.state === 'running';
}

function update() {
  if (!btn) return;
  const on = wanted();
  const blocked = on && !running();
  if (!blocked && btn.classList.contains('blocked')) unblocked = performance.now();
  btn.textContent = !on ? t('tv.sound_off') : blocked ? t('tv.tap_sound') : t('tv.sound_on');
  btn.setAttribute('aria-pressed', on && !blocked ? 'true' : 'false');
  btn.classList.toggle('blocked', blocked);
  document.body.dataset.sound = !on ? 'off' : blocked ? 'blocked' : 'on';
}

/** Wire the switch (#sound in the TV's top bar). */
export function soundSwitch() {
  btn = $('#sound');
  if (!btn) return;
  btn.hidden = false;
  if (wanted()) context();
  btn.addEventListener('click', async () => {
    // A tap aimed at "Tap for sound" that lands just after the sound started by itself (the browser let it
    // play after all) means "sound on": it must not turn the sound off.
    const late = wanted() && running() && performance.now() - unblocked < LATE_TAP_MS;
    if (late) {
      unblocked = -Infinity;
    } else if (wanted() && !running()) {
      const c = context();
      if (c) await c.resume().catch(() => {});
    } else {
      remember(!wanted());
      if (wanted()) await context()?.resume().catch(() => {});
    }
    update();
    unblocked = -Infinity; // started by this tap (not by itself): the next tap is meant, and turns it off
  });
  // Any touch or key on the TV page counts as the gesture the browser waits for — except on the switch
  // itself, whose click does it: were the sound started by the key or touch first, the click that follows
  // would find it on and turn it off (a race lost on a busy machine: "Tap for sound", Enter, "Sound off").
  const unlock = (event) => {
    if (btn.contains(event.target)) return;
    if (wanted() && ctx && !running()) ctx.resume().catch(() => {});
  };
  document.addEventListener('pointerdown', unlock);
  document.addEventListener('keydown', unlock);
  onLang(update);
  update();
}

function tone(freq, start, length, { type = 'sine', gain = 0.18, to = null } = {}) {
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, start + length);
  amp.gain.setValueAtTime(0.0001, start);
  amp.gain.exponentialRampToValueAtTime(gain, start + 0.015);
  amp.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

function rumble(start, length) {
  const frames = Math.floor(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 2;
  const noise = ctx.createBufferSource();
  noise.buffer = buffer;
  const low = ctx.createBiquadFilter();
  low.type = 'lowpass';
  low.frequency.value = 380;
  const amp = ctx.createGain();
  amp.gain.value = 0.7;
  noise.connect(low).connect(amp).connect(ctx.destination);
  noise.start(start);
}

/** Play a moment: 'card', 'hazard', 'reveal' or 'collapse' (only on a TV with sound on). */
export function play(kind) {
  if (!btn || !wanted() || !running()) return;
  const now = ctx.currentTime + 0.02;
  if (kind === 'card') tone(660, now, 0.12, { type: 'triangle', gain: 0.12 });
  else if (kind === 'hazard') {
    tone(220, now, 0.16, { type: 'square', gain: 0.08 });
    tone(185, now + 0.18, 0.22, { type: 'square', gain: 0.08 });
  } else if (kind === 'reveal') {
    tone(523, now, 0.16);
    tone(784, now + 0.14, 0.3);
  } else if (kind === 'collapse') {
    rumble(now, 1.1);
    tone(110, now, 0.9, { type: 'sawtooth', gain: 0.12, to: 38 });
  }
  document.body.dataset.lastSound = kind;
}
