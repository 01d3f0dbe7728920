import { runTable } from './table.js';

runTable('phone');
