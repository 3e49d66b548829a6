export { openOperatorChannel, type OperatorChannel } from './operator-channel.js';
