// The inputs of a game's settings, drawn from its manifest (/api/games): one per option the host may change
// (a checkbox for a `bool`, a list of its range or its choices otherwise, labelled by the manifest's keys),
// the seconds a decision (or a turn) takes, and the turn clock for a turn-by-turn game. The start page
// (a new table) and the host's settings sheet at the table (between games) both use them, each with its
// own id prefix.

import { h, $ } from './dom.js';
import { t, has } from './i18n.js';

const label = (key, fallback) => (has(key) ? t(key) : fallback);

/** One input for an option, with the id PREFIX-KEY (and its label, and hint). */
export function optionInput(option, prefix = 'opt') {
  const id = `${prefix}-${option.key}`;
  if (option.type === 'bool') {
    return h('label', { class: 'check' }, h('input', { id, type: 'checkbox', checked: option.default }), ' ',
      h('span', { text: label(option.label, option.key) }));
  }
  const values = option.type === 'int'
    ? Array.from({ length: option.max - option.min + 1 }, (_, i) => option.min + i) : option.choices;
  const select = h('select', { id }, values.map((v) => h('option', { value: String(v),
    text: option.type === 'int' ? String(v) : label(`${option.label}.${v}`, String(v)) })));
  select.value = String(option.default);
  return [h('label', { for: id, text: label(option.label, option.key) }), select,
    option.hint ? h('p', { class: 'hint', text: label(option.hint, '') }) : null];
}

/** The value an option's input holds now. */
export function optionValue(option, prefix = 'opt', root = document) {
  const el = $(`#${prefix}-${option.key}`, root);
  if (option.type === 'bool') return el.checked;
  if (option.type === 'int') return Number(el.value);
  return option.choices.find((v) => String(v) === el.value) ?? option.default;
}

/** Put a value in an option's input (an option the page does not offer is left alone). */
export function setOption(game, key, value, prefix = 'opt', root = document) {
  const option = game.options.find((o) => o.key === key && o.offered);
  const el = option && $(`#${prefix}-${key}`, root);
  if (!el) return;
  if (option.type === 'bool') el.checked = Boolean(value);
  else el.value = String(value);
}

/** The values of every offered option, by key. */
export function optionValues(game, prefix = 'opt', root = document) {
  return Object.fromEntries(game.options.filter((o) => o.offered).map((o) => [o.key, optionValue(o, prefix, root)]));
}

/** The presets of a game, as a list's options. */
export function presetOptions(game) {
  return game.presets.map((p) => h('option', { value: p.name, text: label(p.label, p.name) }));
}

/** The seconds a game offers, as a list's options (with the current value, if the table has another). */
export function secondsOptions(game, current) {
  const choices = [...game.seconds.choices];
  if (current !== undefined && current !== null && !choices.includes(current)) choices.push(current);
  return choices.sort((a, b) => a - b).map((n) => h('option', { value: n, text: n }));
}
