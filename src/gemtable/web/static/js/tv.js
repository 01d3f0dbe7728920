import { runTable } from './table.js';
import { soundSwitch } from './sound.js';

runTable('tv').then(soundSwitch);
