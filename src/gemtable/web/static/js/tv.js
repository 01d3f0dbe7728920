import { runTable } from './table.js';

runTable('tv');
