// node:string_decoder: the `string_decoder` package (Node's StringDecoder, as readable-stream uses it).
import { StringDecoder } from 'string_decoder/lib/string_decoder.js';

export default { StringDecoder };
