import { describe, expect, it } from 'vitest';
import { emailDocument, htmlSize, preheaderHtml, responsiveBody } from './email-document';

/** The newsletter preset's 50/50 section as the sanitiser writes it, a nested one-cell table inside. */
const TWO_COLUMNS =
  '<table style="width:100%"><tbody><tr>' +
  '<td style="width:50%;padding:8px"><table><tr><td>alone</td></tr></table></td>' +
  '<td style="width:50%">right</td>' +
  '</tr></tbody></table>';

describe('responsiveBody', () => {
  it('lets images scale down, after their own inline style', () => {
    expect(responsiveBody('<p><img src="https://x.io/a.png" alt="a" width="800" /></p>')).toBe(
      '<p><img src="https://x.io/a.png" alt="a" width="800" style="max-width:100%;height:auto" /></p>',
    );
    expect(responsiveBody('<img src="https://x.io/a.png" style="border:0;height:300px;">')).toBe(
      '<img src="https://x.io/a.png" style="border:0;height:300px;max-width:100%;height:auto">',
    );
  });

  it('marks the cells of a multi-column row to stack, keeping their inline widths', () => {
    const out = responsiveBody(TWO_COLUMNS);
    expect(out).toContain('<td style="width:50%;padding:8px" class="marquee-stack">');
    expect(out).toContain('<td style="width:50%" class="marquee-stack">right</td>');
    // The one cell of the nested table is a row of its own: it does not stack.
    expect(out).toContain('<td>alone</td>');
  });

  it('adds to the classes a cell already has, once', () => {
    const out = responsiveBody(
      '<table><tr><td class="grid-item-cell2-l">a</td><td class="grid-item-cell2-r marquee-stack">b</td></tr></table>',
    );
    expect(out).toContain('class="grid-item-cell2-l marquee-stack"');
    expect(out).toContain('class="grid-item-cell2-r marquee-stack"');
  });

  it('leaves a data table (with header cells) and single-cell rows alone', () => {
    const data =
      '<table><thead><tr><th>Plan</th><th>Price</th></tr></thead><tbody><tr><td>Pro</td><td>9</td></tr></tbody></table>';
    expect(responsiveBody(data)).toBe(data);
    const single = '<table><tr><td>one</td></tr><tr><td>two</td></tr></table>';
    expect(responsiveBody(single)).toBe(single);
  });

  it('lets a table fixed wider than a phone shrink to the screen', () => {
    expect(responsiveBody('<table style="width:600px"><tr><td>x</td></tr></table>')).toContain(
      '<table style="width:600px" class="marquee-fluid">',
    );
    expect(responsiveBody('<table width="640"><tr><td>x</td></tr></table>')).toContain(
      'class="marquee-fluid"',
    );
    const narrow = '<table width="320"><tr><td>x</td></tr></table>';
    expect(responsiveBody(narrow)).toBe(narrow);
  });
});

describe('preheaderHtml', () => {
  it('is hidden preview text, escaped, padded with zero-width joiners and spaces', () => {
    const html = preheaderHtml('  Save <20%> & more\n today ');
    expect(html).toMatch(/^<span style="display:none;[^"]*max-height:0;[^"]*mso-hide:all[^"]*">/);
    expect(html).toContain('Save &lt;20%&gt; &amp; more today&zwnj;&nbsp;&zwnj;&nbsp;');
    expect(html.match(/&zwnj;&nbsp;/g)!.length).toBeGreaterThanOrEqual(50);
  });

  it('is nothing without text', () => {
    expect(preheaderHtml(undefined)).toBe('');
    expect(preheaderHtml('   ')).toBe('');
  });
});

describe('emailDocument', () => {
  const doc = emailDocument(`<style>@media (max-width:600px){h1{font-size:20px}}</style>${TWO_COLUMNS}`, {
    preheader: 'Our spring sale',
  });

  it('is a phone-ready document: viewport, responsive rules and the template’s @media in the head', () => {
    expect(doc).toMatch(/^<!DOCTYPE html><html><head><meta charset="utf-8">/);
    expect(doc).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    const head = doc.slice(0, doc.indexOf('</head>'));
    expect(head).toContain('img{max-width:100%;height:auto}');
    expect(head).toContain(
      '@media only screen and (max-width:480px){.marquee-stack{display:block!important;width:100%!important',
    );
    expect(head).toContain('</style><style>@media (max-width:600px){h1{font-size:20px}}</style>');
    expect(doc.slice(doc.indexOf('<body'))).not.toContain('<style>');
  });

  it('opens the body with the preheader, then a container at most 600px wide', () => {
    const body = doc.slice(doc.indexOf('<body'));
    expect(body.indexOf('Our spring sale')).toBeLessThan(body.indexOf('max-width:600px'));
    expect(body).toContain('<div style="max-width:600px;margin:0 auto;text-align:left">');
    expect(body).toContain('<!--[if mso]><table role="presentation" width="600"');
    expect(body).toContain('class="marquee-stack"');
  });

  it('has no preview text without a preheader', () => {
    expect(emailDocument('<p>Hi</p>')).not.toContain('display:none');
  });
});

describe('htmlSize', () => {
  it('counts UTF-8 bytes and says when Gmail clips (over 102 KB)', () => {
    expect(htmlSize('é')).toEqual({ htmlBytes: 2, clipped: false });
    expect(htmlSize('x'.repeat(102 * 1024))).toEqual({ htmlBytes: 104448, clipped: false });
    expect(htmlSize('x'.repeat(102 * 1024 + 1))).toEqual({ htmlBytes: 104449, clipped: true });
  });
});
