import juice from 'juice';
import postcss, { type AtRule, type Declaration, type Root, type Rule } from 'postcss';
import sanitizeHtml from 'sanitize-html';
import { hasSafeScheme, URL_SCHEMES } from '@shared/email/safe-url';
import { mapNestedEntries } from '@shared/schemas/blocks';
import type { FieldDef, SchemaType } from '@shared/schemas/types';
import type { ItemSaveHook } from '../items/save-hooks';

/**
 * Email-safe sanitising of the email template field. Email clients need
 * tables, presentational attributes and inline styles, so the allow-list is wider than rich text's, but
 * nothing that runs survives: no script, style sheet, event handler, form, frame or embedded object, no
 * javascript:/vbscript: URL anywhere, no data: URL except an image's, and CSS only as declarations whose
 * values cannot load script (no expression(), behavior, -moz-binding, @import or non-http url()).
 */

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
const TEXT = [
  'p', 'br', 'hr', 'strong', 'b', 'em', 'i', 'u', 's', 'strike', 'del', 'ins', 'sub', 'sup', 'small',
  'big', 'span', 'div', 'center', 'font', 'blockquote', 'pre', 'code', 'ul', 'ol', 'li', 'dl', 'dt', 'dd',
  'section', 'header', 'footer', 'article', 'main', 'nav', 'aside', 'figure', 'figcaption', 'label',
]; // prettier-ignore
const TABLES = ['table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'colgroup', 'col'];

/** Attributes every allowed tag may carry; `id` and `class` are what the template's CSS selects on. */
const COMMON_ATTRIBUTES = ['id', 'class', 'style', 'title', 'align', 'valign', 'dir', 'lang', 'role'];
const TABLE_ATTRIBUTES = [
  'width', 'height', 'bgcolor', 'background', 'border', 'cellpadding', 'cellspacing', 'colspan', 'rowspan',
  'nowrap', 'scope', 'span',
]; // prettier-ignore

/** CSS properties an email may use inline; anything else is dropped. */
const STYLE_PROPERTIES = [
  'color', 'background', 'background-color', 'background-image', 'background-repeat', 'background-position',
  'background-size', 'font', 'font-family', 'font-size', 'font-style', 'font-weight', 'font-variant',
  'line-height', 'letter-spacing', 'word-spacing', 'text-align', 'text-decoration', 'text-transform',
  'text-indent', 'vertical-align', 'white-space', 'word-break', 'word-wrap', 'overflow-wrap', 'direction',
  'padding', 'padding-top', 'padding-right', 'padding-bottom', 'padding-left',
  'margin', 'margin-top', 'margin-right', 'margin-bottom', 'margin-left',
  'border', 'border-top', 'border-right', 'border-bottom', 'border-left', 'border-color', 'border-style',
  'border-width', 'border-radius', 'border-collapse', 'border-spacing',
  'width', 'min-width', 'max-width', 'height', 'min-height', 'max-height',
  'display', 'float', 'clear', 'overflow', 'table-layout', 'box-sizing', 'list-style-type', 'opacity',
  'mso-table-lspace', 'mso-table-rspace', 'mso-line-height-rule', '-ms-text-size-adjust',
  '-webkit-text-size-adjust',
]; // prettier-ignore

/** A value that can load nothing: no url(), expression(), script scheme, escapes or markup. */
const PLAIN_VALUE =
  /^(?![\s\S]*(?:url\s*\(|expression|javascript|vbscript|behavior|binding|@import))[^<>{}\\;"]*$/i;
/** A url() of an http(s) or own relative image, alone or in a background shorthand. */
const URL_VALUE =
  /^(?![\s\S]*(?:expression|javascript|vbscript|behavior|binding|@import))[^<>{}\\;]*url\(\s*['"]?(?:https?:\/\/|\/(?!\/))[^'"()\s<>\\]*['"]?\s*\)[^<>{}\\;()]*$/i;
const URL_PROPERTIES = new Set(['background', 'background-image']);

const allowedStyles = Object.fromEntries(
  STYLE_PROPERTIES.map((prop) => [prop, URL_PROPERTIES.has(prop) ? [PLAIN_VALUE, URL_VALUE] : [PLAIN_VALUE]]),
);

/** An image's data: URL of a raster type; everything else with a data: scheme is dropped. */
const DATA_IMAGE = /^data:image\/(?:png|jpe?g|gif|webp);base64,[A-Za-z0-9+/=\s]+$/i;

/**
 * Images come from http(s), our own relative file URLs, a raster data: URL or a merge tag (whose value
 * must be an http(s) URL when the message is filled: `fillMergeTags`).
 */
const isImageSource = (src: string) =>
  hasSafeScheme(src, 'image') || /^(?:\/(?!\/)|\{\{)/.test(src.trim()) || DATA_IMAGE.test(src.trim());
/** Links go to http(s), mail, phone, an anchor, our own paths or a merge tag (checked likewise). */
const isLinkTarget = (href: string) =>
  hasSafeScheme(href, 'link') || /^(?:#|\/(?!\/)|\{\{)/.test(href.trim());

/** Only new-tab links keep a target, and those never hand the opener to the other page. */
function linkAttributes(attribs: Record<string, string>) {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(attribs)) {
    if (name === 'rel' || (name === 'target' && value !== '_blank')) continue;
    if (name === 'href' && !isLinkTarget(value)) continue;
    out[name] = value;
  }
  if (out.target) out.rel = 'noopener noreferrer';
  return out;
}

const EMAIL_POLICY: sanitizeHtml.IOptions = {
  allowedTags: [...HEADINGS, ...TEXT, ...TABLES, 'a', 'img'],
  allowedAttributes: {
    '*': COMMON_ATTRIBUTES,
    a: ['href', 'target', 'rel', 'name'],
    img: ['src', 'alt', 'width', 'height', 'border'],
    font: ['color', 'face', 'size'],
    ol: ['start', 'type'],
    ul: ['type'],
    ...Object.fromEntries(TABLES.map((tag) => [tag, TABLE_ATTRIBUTES])),
  },
  allowedSchemes: [...URL_SCHEMES.link],
  allowedSchemesByTag: { img: [...URL_SCHEMES.image, 'data'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'background', 'cite'],
  allowProtocolRelative: false,
  allowedStyles: { '*': allowedStyles },
  parseStyleAttributes: true,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: linkAttributes(attribs) }),
    img: (tagName, attribs) => ({
      tagName,
      attribs: Object.fromEntries(
        Object.entries(attribs).filter(([name, value]) => name !== 'src' || isImageSource(value)),
      ),
    }),
  },
};

/** Sanitises email HTML (a template's `gjs-nl-html`, or a message about to be sent). */
function sanitizeEmailHtml(html: string): string {
  const out = sanitizeHtml(html, EMAIL_POLICY);
  // A background attribute is a URL too: only http(s) or own relative images.
  return out.replace(/\sbackground="([^"]*)"/g, (whole, value: string) =>
    /^(?:https?:\/\/|\/(?!\/))/i.test(value.trim()) ? whole : '',
  );
}

const SAFE_PROPERTY = /^-?[a-z][a-z0-9-]*$/i;

function isSafeDeclaration(decl: Declaration) {
  const prop = decl.prop.toLowerCase();
  if (!SAFE_PROPERTY.test(prop)) return false;
  // A style sheet may use other properties with plain values (never the script-loading ones).
  if (!STYLE_PROPERTIES.includes(prop))
    return !/behavior|binding|expression/.test(prop) && PLAIN_VALUE.test(decl.value);
  return allowedStyles[prop].some((pattern) => pattern.test(decl.value));
}

/** Keeps style rules and @media blocks of safe declarations; every other at-rule and any markup goes. */
function cleanSheet(root: Root) {
  root.walkAtRules((atRule: AtRule) => {
    if (atRule.name.toLowerCase() !== 'media' || /[<>{};\\]/.test(atRule.params)) atRule.remove();
  });
  root.walkComments((comment) => {
    comment.remove();
  });
  root.walkRules((rule: Rule) => {
    if (/[<>\\]/.test(rule.selector)) rule.remove();
  });
  root.walkDecls((decl) => {
    if (!isSafeDeclaration(decl)) decl.remove();
  });
  root.walkRules((rule) => {
    if (!rule.nodes?.length) rule.remove();
  });
  root.walkAtRules((atRule) => {
    if (!atRule.nodes?.length) atRule.remove();
  });
}

/** Sanitises a template's style sheet (`gjs-nl-css`); CSS that does not parse is dropped whole. */
function sanitizeEmailCss(css: string): string {
  let root: Root;
  try {
    root = postcss.parse(css);
  } catch {
    return '';
  }
  cleanSheet(root);
  return root.toString();
}

/** The @media blocks of a (sanitised) sheet: inlining cannot carry them, so they stay in a <style>. */
function mediaRules(css: string): string {
  const root = postcss.parse(css);
  root.each((node) => {
    if (node.type !== 'atrule') node.remove();
  });
  return root.toString().trim();
}

/** Relative own URLs (`/api/v1/…`) made absolute under `publicUrl`, for mail clients. */
export function absoluteImageUrls(html: string, publicUrl: string): string {
  return html.replace(
    /(\s(?:src|background|href)=")(\/(?!\/)[^"]*)"/g,
    (_whole, head: string, url: string) => `${head}${publicUrl}${url}"`,
  );
}

/**
 * `combinedMarkup`: the (sanitised) HTML with the (sanitised) CSS inlined by juice, sanitised again,
 * own image URLs made absolute, and the @media rules kept in one <style> for phones.
 */
function buildCombinedMarkup(html: string, css: string, publicUrl: string): string {
  const inlined = juice.inlineContent(html, css, {
    applyAttributesTableElements: true,
    applyWidthAttributes: true,
    preserveMediaQueries: false,
    removeStyleTags: true,
  });
  const body = absoluteImageUrls(sanitizeEmailHtml(inlined), publicUrl);
  const media = mediaRules(css);
  return media ? `<style>${media}</style>${body}` : body;
}

/**
 * HTML about to be sent (a template's combinedMarkup, or HTML given to `/fun/testSend/`): sanitised like
 * a template, keeping the @media rules of its <style> blocks (sanitised) for phones.
 */
export function sanitizeMessageHtml(html: string): string {
  const sheets = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/gi)].map((match) => match[1]);
  const media = sheets.length ? mediaRules(sanitizeEmailCss(sheets.join('\n'))) : '';
  const body = sanitizeEmailHtml(html);
  return media ? `<style>${media}</style>${body}` : body;
}

const FORBIDDEN_TYPE = new Set([
  'script',
  'iframe',
  'video',
  'map',
  'form',
  'input',
  'textarea',
  'select',
  'svg',
]);
const FORBIDDEN_TAG = new Set([
  'script', 'style', 'link', 'meta', 'base', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet',
  'form', 'input', 'button', 'textarea', 'select', 'option', 'svg', 'math', 'template', 'noscript',
  'video', 'audio', 'source', 'track', 'canvas', 'map', 'area',
]); // prettier-ignore
const MAX_COMPONENT_DEPTH = 64;

function isUnsafeUrl(value: string) {
  // eslint-disable-next-line no-control-regex
  const plain = value.replace(/[\u0000-\u0020]+/g, '').toLowerCase();
  return /^(?:javascript|vbscript|data|file):/.test(plain) && !DATA_IMAGE.test(value.trim());
}

function cleanAttributes(attributes: unknown): Record<string, string> {
  if (!attributes || typeof attributes !== 'object' || Array.isArray(attributes)) return {};
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    const text = String(value);
    if (!/^[a-z][a-z0-9-]*$/i.test(name) || /^on/i.test(name)) continue;
    if (
      ['href', 'src', 'background', 'action', 'formaction', 'srcset', 'xlink:href'].includes(
        name.toLowerCase(),
      )
    )
      if (isUnsafeUrl(text)) continue;
    if (name.toLowerCase() === 'style') {
      const cleaned = sanitizeEmailCss(`x{${text}}`).replace(/^x\s*\{\s*|\s*\}\s*$/g, '');
      if (cleaned) out[name] = cleaned;
      continue;
    }
    out[name] = text;
  }
  return out;
}

/**
 * GrapesJS's component tree (`gjs-nl-components`) is rendered by the editor's canvas, so it is cleaned
 * like the HTML: forbidden tags and types dropped, component scripts and event handlers removed, URLs
 * checked, HTML content sanitised.
 */
function cleanComponent(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.includes('<') ? sanitizeEmailHtml(value) : value;
  if (Array.isArray(value)) return cleanComponents(value, depth);
  if (!value || typeof value !== 'object' || depth > MAX_COMPONENT_DEPTH) return undefined;
  const component = value as Record<string, unknown>;
  const tag = typeof component.tagName === 'string' ? component.tagName.toLowerCase() : '';
  const type = typeof component.type === 'string' ? component.type.toLowerCase() : '';
  if (FORBIDDEN_TAG.has(tag) || FORBIDDEN_TYPE.has(type)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(component)) {
    if (/^script/i.test(key) || key === 'attributes' || key === 'components') continue;
    if (key === 'content' && typeof item === 'string') out.content = cleanComponent(item, depth);
    else if (key === 'src' && typeof item === 'string') {
      if (!isUnsafeUrl(item)) out.src = item;
    } else out[key] = item;
  }
  if ('attributes' in component) out.attributes = cleanAttributes(component.attributes);
  if ('components' in component) out.components = cleanComponent(component.components, depth + 1);
  return out;
}

function cleanComponents(list: unknown[], depth: number): unknown[] {
  return list.map((item) => cleanComponent(item, depth)).filter((item) => item !== undefined);
}

/** GrapesJS's CSS rules (`gjs-nl-styles`): declarations and media text checked like the style sheet. */
function cleanStyles(value: unknown): unknown {
  if (!Array.isArray(value)) return undefined;
  return value
    .filter((rule): rule is Record<string, unknown> => !!rule && typeof rule === 'object')
    .filter((rule) => !rule.atRuleType || rule.atRuleType === 'media')
    .filter((rule) => !/[<>{};\\]/.test(JSON.stringify([rule.selectors, rule.mediaText, rule.state])))
    .map((rule) => {
      const style = rule.style && typeof rule.style === 'object' ? rule.style : {};
      const kept = Object.entries(style).filter(
        ([prop, val]) => typeof val === 'string' && isSafeDeclaration(postcss.decl({ prop, value: val })),
      );
      return { ...rule, style: Object.fromEntries(kept) };
    });
}

/** GrapesJS's asset list (`gjs-nl-assets`): images with a safe source only. */
function cleanAssets(value: unknown): unknown {
  if (!Array.isArray(value)) return undefined;
  return value
    .map((asset) => (typeof asset === 'string' ? { src: asset } : asset))
    .filter(
      (asset): asset is Record<string, unknown> =>
        !!asset &&
        typeof asset === 'object' &&
        typeof (asset as { src?: unknown }).src === 'string' &&
        /^(?:https?:\/\/|\/(?!\/)|data:image\/)/i.test((asset as { src: string }).src) &&
        !isUnsafeUrl((asset as { src: string }).src),
    );
}

interface EmailTemplateContent {
  'gjs-nl-html'?: string;
  'gjs-nl-css'?: string;
  'gjs-nl-styles'?: unknown;
  'gjs-nl-components'?: unknown;
  'gjs-nl-assets'?: unknown;
  combinedMarkup?: string;
}

/**
 * The template content as it may be stored: HTML, CSS, GrapesJS's project data and assets sanitised,
 * and `combinedMarkup` rebuilt on the server (whatever the client sent for it).
 */
function prepareEmailTemplate(
  content: EmailTemplateContent,
  options: { publicUrl: string },
): EmailTemplateContent {
  const html = sanitizeEmailHtml(content['gjs-nl-html'] ?? '');
  const css = sanitizeEmailCss(content['gjs-nl-css'] ?? '');
  const out: EmailTemplateContent = {
    'gjs-nl-html': html,
    'gjs-nl-css': css,
    combinedMarkup: html.trim() ? buildCombinedMarkup(html, css, options.publicUrl) : '',
  };
  const styles = cleanStyles(content['gjs-nl-styles']);
  if (styles !== undefined) out['gjs-nl-styles'] = styles;
  const components = Array.isArray(content['gjs-nl-components'])
    ? cleanComponents(content['gjs-nl-components'], 0)
    : undefined;
  if (components !== undefined) out['gjs-nl-components'] = components;
  const assets = cleanAssets(content['gjs-nl-assets']);
  if (assets !== undefined) out['gjs-nl-assets'] = assets;
  return out;
}

/** For the item-save path: every email-template field of the data (in table rows and blocks too), prepared for storing. */
function prepareEmailFields(
  schema: Pick<SchemaType, 'fields' | 'blockTypes'>,
  data: Record<string, unknown>,
  options: { publicUrl: string },
): Record<string, unknown> {
  const prepare = (fields: readonly FieldDef[], holder: Record<string, unknown>) => {
    let out: Record<string, unknown> | undefined;
    for (const field of fields) {
      const value = holder[field.key];
      const prepared =
        field.type === 'email-template' && value && typeof value === 'object'
          ? prepareEmailTemplate(value as EmailTemplateContent, options)
          : mapNestedEntries(field, value, schema.blockTypes, (entry) => prepare(entry.fields, entry.data));
      if (prepared !== value) (out ??= { ...holder })[field.key] = prepared;
    }
    return out ?? holder;
  };
  return prepare(schema.fields, data);
}

/** Email templates are sanitised under an email-safe allow-list, with combinedMarkup built here. */
export const prepareEmailFieldsOnSave: ItemSaveHook = (ctx, scope, data) =>
  prepareEmailFields(scope.schema, data, { publicUrl: ctx.config.publicUrl });
