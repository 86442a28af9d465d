// Selector cases: which elements each selector matches (every element carries an id), and the
// errors of selectors Cloudflare does not support.
import { err } from './lib.js';

function matching(selectors, doc) {
  return [[doc], (log) => {
    const r = new HTMLRewriter();
    for (const s of selectors) {
      try {
        r.on(s, { element(e) { log.push([s, e.tagName, e.getAttribute('id')]); } });
      } catch (x) {
        log.push([s, err(x)]);
      }
    }
    return r;
  }];
}

const LIST = '<ul id=u><li id=l1>a</li><li id=l2 class="x y">b</li><li id=l3>c</li><li id=l4 class=y>d</li><li id=l5>e</li></ul>';
const MIXED = '<div id=d><p id=p1>1</p><span id=s1>s</span><p id=p2 class=a>2</p><span id=s2>t</span><p id=p3>3</p></div>';
const ATTRS = '<a id=a1 href="https://example.com/x.png" lang=en-US data-x=V class="one two">1</a>'
  + '<a id=a2 href="http://example.org/y.html" lang=en data-x=v class=two>2</a>'
  + '<a id=a3 href="/rel" lang=fr data-x="">3</a><a id=a4>4</a>';
const NESTED = '<body id=b><div id=d1><p id=p1>x<span id=sp1>y</span></p></div><div id=d2><section id=sec><p id=p2>z</p></section></div><p id=p3>w</p></body>';

export const SELECTOR_CASES = {
  'sel-type-universal': matching(['*', 'li', 'LI', 'ul'], LIST),
  'sel-nth-child': matching(['li:nth-child(2)', 'li:nth-child(2n+1)', 'li:nth-child(odd)', 'li:nth-child(even)',
    'li:nth-child(-n+2)', 'li:nth-child(n)', 'li:nth-child( 3n - 1 )', ':first-child', 'li:NTH-CHILD(4)'], LIST),
  'sel-nth-of-type': matching(['p:nth-of-type(2)', 'p:first-of-type', 'span:nth-of-type(odd)', 'span:first-of-type',
    'p:nth-child(3)', 'span:nth-child(2)', ':nth-of-type(3)'], MIXED),
  'sel-not': matching(['p:not(.a)', 'li:not(:first-child)', 'li:not(.y)', 'li:not(#l3):not(#l4)', ':not(p)', 'span:not(:nth-of-type(2))'],
    LIST + MIXED),
  'sel-class-id': matching(['.y', '.x.y', '#l3', 'li#l2.x', '#nope', '.X', '*.y', 'li.y#l4'], LIST),
  'sel-attr-ops': matching(['[data-x]', '[data-x="v"]', '[data-x=V]', '[class~=two]', '[class~="one two"]', '[lang|=en]',
    '[href^="https"]', '[href$=".png"]', '[href*=example]', '[href^=""]', '[href$=""]', '[href*=""]', '[class~=""]', '[lang|=""]',
    '[data-x=""]', 'a[lang]', '[id]'], ATTRS),
  'sel-attr-case': matching(['[data-x="V" i]', '[data-x="v" I]', '[data-x="V" s]', '[lang="EN" i]', '[href*="EXAMPLE" i]'], ATTRS),
  'sel-combinators': matching(['div p', 'div > p', 'body > p', 'div span', 'p > span', 'body div section p', 'div>p', 'body  p',
    'section > p', 'div > section > p'], NESTED),
  'sel-implicit-nesting': matching(['li', 'li:nth-child(2)', 'li > li', 'ul > li', 'li li li', 'p p', 'div > p'],
    '<ul><li id=a>one<li id=b>two<li id=c>three</ul><p id=p1>x<div id=dv><p id=p2>y</p></div></p>'),
  'sel-list': matching(['h1, h2', 'h2,h3', 'h1 , #t3', 'p, p'], '<h1 id=t1>a</h1><h2 id=t2>b</h2><h3 id=t3>c</h3><p id=t4>d</p>'),
  'sel-escapes': matching(['.\\31 a', '#a\\:b', '[data-q="x\\"y"]', "[data-q='x\"y']", '.a\\.b'],
    '<p id=p1 class=1a>x</p><p id="a:b">y</p><p id=p3 data-q=\'x"y\'>z</p><p id=p4 class="a.b">w</p>'),
  'sel-foreign': matching(['svg', 'svg *', 'svg rect', 'math mi', 'g > circle', 'svg g'],
    '<svg id=s><rect id=r/><g id=g><circle id=c/></g></svg><math id=m><mi id=mi>x</mi></math><p id=p>y</p>'),
  'sel-integration-points': matching(['svg *', 'foreignobject', 'foreignObject p', 'svg > title', 'mo'],
    '<svg id=s><g id=g/><foreignObject id=f><p id=fp>x</p></foreignObject><title id=t>t</title></svg><math><mi id=mi>x</mi><mo id=mo/></math>'),
  'sel-integration-points-lexed': [['<svg id=s><g id=g></g><foreignObject id=f><p id=fp>x</p></foreignObject><title id=t>t</title></svg><math><mi id=mi>x</mi><mo id=mo/></math>'],
    (log) => new HTMLRewriter().onDocument({ text() {} }).on('*', { element(e) { log.push([e.tagName, e.getAttribute('id'), e.namespaceURI]); } })],
  'sel-errors-1': matching(['', '  ', 'p:hover', 'p::before', 'a ~ b', 'a + b', 'svg|a', 'p:last-child', 'p >', '#', '.', '[',
    'p:empty', 'p:only-child', 'p:nth-last-child(1)', 'p:is(a)', 'p:has(a)', ':root', 'p:not()', '*|*', '|p'], '<p id=x>x</p>'),
  'sel-errors-2': matching(['p!', '[=a]', '[a==b]', '.1a', '#1', 'p:nth-child(x)', 'p:nth-child()', 'p..a', '> p', 'p > > a', 'p,',
    ',p', '[a=b x]', '[a|b]', 'p:nth-child(2n+1 of p)', 'p:first-child(1)', '@', 'p{', '[a!=b]', '[a=]', '::after', 'p:first',
    'a|b', 'p>', 'a[id=x', ':nth-child(n'], '<p id=x>x</p><a id=x>y</a>'),
};
