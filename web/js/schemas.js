  // ---------- Schemas ----------

  // resolve follows a local $ref ("#/$defs/X", "#/definitions/X").
  function resolve(schema, root, seen) {
    seen = seen || 0;
    if (!isObject(schema)) return {};
    if (typeof schema.$ref === 'string' && seen < 16) {
      var m = /^#\/(\$defs|definitions)\/(.+)$/.exec(schema.$ref);
      if (m && root && isObject(root[m[1]])) {
        var key = decodeURIComponent(m[2]).replace(/~1/g, '/').replace(/~0/g, '~');
        var target = root[m[1]][key];
        if (isObject(target)) {
          var merged = Object.assign({}, resolve(target, root, seen + 1));
          for (var k in schema) if (k !== '$ref') merged[k] = schema[k];
          merged.__ref = key;
          return merged;
        }
      }
    }
    return schema;
  }

  function typeOfValue(v) {
    if (v === null) return 'null';
    if (Array.isArray(v)) return 'array';
    if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
    return typeof v;
  }

  function typeLabel(schema, root, depth) {
    depth = depth || 0;
    var s = resolve(schema, root);
    if (depth > 4) return 'any';
    var t = s.type;
    var label;
    if (Array.isArray(t)) {
      label = t.map(function (x) {
        return x === 'array' ? typeLabel(Object.assign({}, s, { type: 'array' }), root, depth + 1) : x;
      }).join(' | ');
    } else if (t === 'array') {
      var items = s.items || s.prefixItems && s.prefixItems[0];
      label = items ? typeLabel(items, root, depth + 1) + '[]' : 'array';
    } else if (typeof t === 'string') {
      label = t;
    } else if (s.const !== undefined) {
      label = typeOfValue(s.const);
    } else if (Array.isArray(s.enum) && s.enum.length) {
      label = Array.from(new Set(s.enum.map(typeOfValue))).join(' | ');
    } else if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
      label = (s.anyOf || s.oneOf).map(function (x) { return typeLabel(x, root, depth + 1); }).join(' | ');
    } else if (isObject(s.properties)) {
      label = 'object';
    } else {
      label = 'any';
    }
    if (s.format && typeof s.format === 'string') label += ' (' + s.format + ')';
    if (s.nullable === true && label.indexOf('null') < 0) label += ' | null';
    return label;
  }

  function constraints(s) {
    var out = [];
    function add(k, f) { if (s[k] !== undefined && s[k] !== null) out.push(f(s[k])); }
    add('minimum', function (v) { return '\u2265 ' + v; });
    add('exclusiveMinimum', function (v) { return '> ' + v; });
    add('maximum', function (v) { return '\u2264 ' + v; });
    add('exclusiveMaximum', function (v) { return '< ' + v; });
    add('multipleOf', function (v) { return 'multiple of ' + v; });
    add('minLength', function (v) { return 'min length ' + v; });
    add('maxLength', function (v) { return 'max length ' + v; });
    add('pattern', function (v) { return 'pattern ' + v; });
    add('minItems', function (v) { return 'min items ' + v; });
    add('maxItems', function (v) { return 'max items ' + v; });
    if (s.uniqueItems === true) out.push('unique items');
    add('minProperties', function (v) { return 'min properties ' + v; });
    add('maxProperties', function (v) { return 'max properties ' + v; });
    if (s.deprecated === true) out.push('deprecated');
    if (s.readOnly === true) out.push('read-only');
    return out;
  }

  function literal(v) { return typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v); }

  // nested finds the object schema inside a property whose value has
  // properties of its own: an object, an array of objects (at any depth of
  // arrays), either of them nullable (type ["array", "null"], as Go slices
  // and pointers come out) or the one branch of an anyOf/oneOf that is not
  // null. It answers {schema, path} with the path's suffix ("." or "[]."),
  // or null.
  function nested(schema, root, depth) {
    depth = depth || 0;
    var s = resolve(schema, root);
    if (depth > 4) return null;
    if (isObject(s.properties)) return { schema: s, path: '.' };
    var t = s.type;
    if ((t === 'array' || Array.isArray(t) && t.indexOf('array') >= 0) && isObject(s.items)) {
      var inner = nested(s.items, root, depth + 1);
      return inner ? { schema: inner.schema, path: '[]' + inner.path } : null;
    }
    var alts = Array.isArray(s.anyOf) ? s.anyOf : s.oneOf;
    if (Array.isArray(alts)) {
      var some = alts.filter(function (a) { return resolve(a, root).type !== 'null'; });
      if (some.length === 1) return nested(some[0], root, depth + 1);
    }
    return null;
  }

  // rows flattens an object schema into table rows, nested properties as
  // dotted paths ("address.city", "items[].id"), in the input's table and
  // the output's alike.
  function rows(schema, root, prefix, depth, out) {
    var s = resolve(schema, root);
    if (depth > 4 || !isObject(s.properties)) return out;
    var required = Array.isArray(s.required) ? s.required : [];
    Object.keys(s.properties).forEach(function (name) {
      var p = resolve(s.properties[name], root);
      out.push({ prefix: prefix, name: name, schema: p, required: required.indexOf(name) >= 0 });
      var inner = nested(p, root);
      if (inner) rows(inner.schema, root, prefix + name + inner.path, depth + 1, out);
    });
    return out;
  }

  function describeCell(s, root) {
    var cell = el('td', { class: 'arg-desc' });
    var desc = s.description || s.title || '';
    if (desc) append(cell, el('div', { text: desc }));
    var values = Array.isArray(s.enum) ? s.enum : (s.const !== undefined ? [s.const] : null);
    if (!values && Array.isArray(s.items && resolve(s.items, root).enum)) values = resolve(s.items, root).enum;
    if (values) {
      append(cell, el('div', { class: 'chips' },
        el('span', { class: 'chip-label', text: s.const !== undefined ? 'Constant:' : 'One of:' }),
        values.map(function (v) { return el('code', { class: 'chip', text: literal(v) }); })));
    }
    var c = constraints(s);
    var examples = Array.isArray(s.examples) ? s.examples : (s.example !== undefined ? [s.example] : []);
    if (c.length || examples.length) {
      append(cell, el('div', { class: 'chips' },
        c.map(function (x) { return el('span', { class: 'chip chip-constraint', text: x }); }),
        examples.length ? el('span', { class: 'chip-label', text: 'e.g.' }) : null,
        examples.map(function (x) { return el('code', { class: 'chip', text: literal(x) }); })));
    }
    if (!cell.firstChild) append(cell, el('span', { class: 'muted', text: '\u2014' }));
    return cell;
  }

  // schemaTable shows an object schema's properties. The input's table has
  // every column; the output's leaves out Required and Default (which say
  // little about a result) unless some property has a default.
  function schemaTable(schema, isInput) {
    var root = schema;
    var list = rows(schema, root, '', 0, []);
    var withRequired = isInput;
    var withDefault = isInput || list.some(function (r) { return r.schema.default !== undefined; });
    var thead = el('thead', null, el('tr', null,
      el('th', { text: 'Name' }), el('th', { text: 'Type' }),
      withRequired ? el('th', { text: 'Required' }) : null,
      withDefault ? el('th', { text: 'Default' }) : null, el('th', { text: 'Description' })));
    var tbody = el('tbody');
    list.forEach(function (r) {
      var nameCell = el('td', { class: 'arg-name' },
        el('code', null, r.prefix ? el('span', { class: 'arg-path', text: r.prefix }) : null, r.name));
      tbody.appendChild(el('tr', { dataset: { arg: r.prefix + r.name } },
        nameCell,
        el('td', null, el('code', { class: 'type', text: typeLabel(r.schema, root) })),
        withRequired ? el('td', { class: 'arg-required' }, r.required
          ? el('span', { class: 'req', text: 'required' })
          : el('span', { class: 'opt', text: 'optional' })) : null,
        withDefault ? el('td', null, r.schema.default !== undefined
          ? el('code', { class: 'default-val', text: literal(r.schema.default) })
          : el('span', { class: 'muted', text: '\u2014' })) : null,
        describeCell(r.schema, root)));
    });
    return el('div', { class: 'table-wrap' }, el('table', { class: 'args' }, thead, tbody));
  }

  // schemaSection shows a schema as a table (or a sentence when it has no
  // properties) with the raw JSON one click away.
  function schemaSection(heading, schema, kind) {
    var raw = codeBlock(pretty(schema), 'raw-schema');
    raw.hidden = true;
    var toggle = el('button', { type: 'button', class: 'btn-link raw-toggle', text: 'Show raw schema', 'aria-expanded': 'false' });
    toggle.addEventListener('click', function () {
      var show = raw.hidden;
      raw.hidden = !show;
      toggle.textContent = show ? 'Hide raw schema' : 'Show raw schema';
      toggle.setAttribute('aria-expanded', show ? 'true' : 'false');
    });
    var s = resolve(schema, schema);
    var body;
    if (isObject(s.properties) && Object.keys(s.properties).length) {
      body = schemaTable(schema, kind === 'input');
    } else if (kind === 'input') {
      body = el('p', { class: 'plain-note', text: isObject(s.properties) || s.additionalProperties === false
        ? 'This tool takes no arguments.' : 'This tool accepts any JSON object as arguments.' });
    } else {
      body = el('p', { class: 'plain-note' }, 'Returns ', el('code', { class: 'type', text: typeLabel(s, schema) }),
        s.description ? ': ' + s.description : '.');
    }
    return el('section', { class: 'section ' + kind + '-schema' },
      el('div', { class: 'section-head' }, el('h3', { text: heading }), toggle), body, raw);
  }

