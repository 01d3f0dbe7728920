import { runTable } from './table.js';
import { soundSwitch } from './sound.js';
import * as stage from './stage.js';

runTable('tv', stage).then(() => {
  soundSwitch();
  stage.remote();
});
