// Text cases: where text chunks start and end (input chunk boundaries, '<' that is not markup,
// raw-text elements, script escapes, EOF), what text mutations do, UTF-8 split across chunks and
// malformed UTF-8, and markup cut by chunk boundaries anywhere.
import { html } from './lib.js';

const texts = (sel) => (log) => new HTMLRewriter().on(sel, { text(t) { log.push([t.text, t.lastInTextNode, t.removed]); } });
const docText = (log) => new HTMLRewriter().onDocument({ text(t) { log.push([t.text, t.lastInTextNode]); } });
const everything = (log) => new HTMLRewriter()
  .on('*', { element(e) { log.push(['el', e.tagName, [...e.attributes]]); e.onEndTag((t) => log.push(['end', t.name])); } })
  .onDocument({ text(t) { log.push(['text', t.text, t.lastInTextNode]); }, comments(c) { log.push(['comment', c.text]); },
    doctype(d) { log.push(['doctype', d.name]); } });
const hex = (u8) => [...u8].map((b) => b.toString(16).padStart(2, '0')).join('');
const bytes = (s) => [...new TextEncoder().encode(s)].map((b) => [b]);

export const TEXT_CASES = {
  'text-chunks': [['<p>Hello <b>wor', 'ld</b>!</p>'], texts('p')],
  'text-document': [['before<p>in</p>after'], (log) => new HTMLRewriter().onDocument({ text(t) { log.push(['d', t.text, t.lastInTextNode]); } })
    .on('p', { text(t) { log.push(['p', t.text, t.lastInTextNode]); } })],
  'text-chunk-boundaries': [['<div>a', 'b<', 'p>c</', 'p>d</div>', 'tail'], docText],
  'text-less-than': [['<p>a < b <3 c<> d</ e</p>x'], docText],
  'text-rawtext': [['<script>if (a<b) x="</div>"</script><style>p>q{}</style><textarea><b>x</b></textarea><title>a<b>c</title>'
    + '<noscript><b>x</b></noscript><xmp><b>y</b></xmp><iframe><b>z</b></iframe><noembed>w</noembed><noframes>v</noframes>'], everything],
  'text-script-escapes': [['<script>a<!--b<c--></script>d<script><!--<script>x</script>y--></script>e<script>f<!g</script>'], docText],
  'text-script-split': [['<script>ab<', '/scr', 'ipt>x<script>1', '<', '!-', '-2--', '></script>'], docText],
  'text-plaintext': [['<p>a</p><plaintext><b>u</b></plaintext>', 'more'], everything],
  'text-long-node': [['<p>' + 'a'.repeat(2500) + '</p><p>' + 'b'.repeat(1023) + '\u00e9c</p>'],
    (log) => new HTMLRewriter().on('p', { text(t) { log.push([t.text.length, t.lastInTextNode]); } })],
  'text-mutations': [['<p>one two</p><p>three</p><i>four</i>'], (log) => new HTMLRewriter()
    .on('p', { text(t) { if (t.text === 'three') { t.remove(); log.push(['removed', t.removed]); return; } if (t.text) { t.before('<B>', { html: true }); t.after('<A>'); t.replace('R&'); log.push([t.removed, t.text]); } } })
    .on('i', { text(t) { t.after('[1]'); t.after('[2]'); t.before('[3]'); t.before('[4]'); } })],
  'text-utf8-split': [['<p>caf', [0xc3], [0xa9, 0x20], 'x ', [0xe2, 0x82], [0xac], '</p>'], (log) => new HTMLRewriter().on('p', { text(t) { log.push(t.text); t.replace('[' + t.text + ']'); } })],
  'text-invalid-utf8': async (log) => {
    const body = await new HTMLRewriter().on('p', { text(t) { log.push(t.text); } })
      .transform(html(['<p>a', [0xff, 0x62], [0xc3], '</p><i>', [0xff, 0xe2, 0x82], '</i>'])).arrayBuffer();
    return hex(new Uint8Array(body));
  },
  'text-passthrough-bytes': async (log) => {
    const body = await new HTMLRewriter().on('i', { element(e) { e.setAttribute('x', '\u00e9'); } })
      .transform(html(['<p>\u00e9', [0xff, 0xfe], '</p><i>', [0xc3], '</i>'])).arrayBuffer();
    return hex(new Uint8Array(body));
  },
  'text-eof': [['abc<div'], docText],
  'text-eof-comment': [['abc<!-- open'], (log) => new HTMLRewriter().onDocument({ comments(c) { log.push(['c', c.text]); }, text(t) { log.push([t.text, t.lastInTextNode]); } })],
  'text-eof-end-tag-open': [['a</>b</'], docText],
  'text-eof-lt': [['x<'], docText],
  'split-in-tag': [['<di', 'v cla', 'ss="a', ' b" id=', 'x>t</d', 'iv>'], everything],
  'split-in-comment': [['<!', '-', '- a -', '-', '>x<!-', '-b--!', '>'], everything],
  'split-in-doctype': [['<!DOC', 'TYPE ht', 'ml PUB', 'LIC "a" "b', '">'], everything],
  'split-byte-by-byte': [bytes('<!DOCTYPE html><p class=a id="b">x &amp; y<!--c--><br/></p>\u00e9<script>1<2</script>'), everything],
  'split-rewrite': [['<a hr', 'ef="/x">l', 'ink</a', '><img s', 'rc=y>'], (log) => new HTMLRewriter()
    .on('a', { element(e) { e.setAttribute('href', '/y'); e.prepend('['); e.append(']'); } })
    .on('img', { element(e) { e.remove(); } })],
  'cdata-foreign': [['<svg><![CDATA[a]b]]c]]></svg><![CDATA[html]]>'], everything],
  'attributes-unquoted-edge': [['<p a=b/ c="d"e f=\'g\'h i= j k=>x</p><p/ x>y</p>'], everything],
};
