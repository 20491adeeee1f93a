import ts from 'typescript';

/**
 * Finds module-level mutable state in TypeScript sources: a top-level `let` or `var`, and a
 * top-level `const` holding an object (a collection, an array, an object literal, a stateful
 * regex) that code in its file writes (a module that hands such an object out to be written
 * would be odd enough for a reviewer to see). Pure code keeps its state in instances, so two
 * analyses (or a test and the next) never share it.
 */

/** Methods that change the collection, array or typed array they are called on. */
const MUTATORS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin', 'set', 'add', 'delete', 'clear']);
/** Methods of a regex with the g or y flag, which move its `lastIndex`. */
const REGEX_STATEFUL = new Set(['exec', 'test']);

const ASSIGNMENTS = new Set([
  ts.SyntaxKind.EqualsToken, ts.SyntaxKind.PlusEqualsToken, ts.SyntaxKind.MinusEqualsToken, ts.SyntaxKind.AsteriskEqualsToken,
  ts.SyntaxKind.SlashEqualsToken, ts.SyntaxKind.BarEqualsToken, ts.SyntaxKind.AmpersandEqualsToken, ts.SyntaxKind.LessThanLessThanEqualsToken,
  ts.SyntaxKind.GreaterThanGreaterThanEqualsToken, ts.SyntaxKind.GreaterThanGreaterThanGreaterThanEqualsToken, ts.SyntaxKind.QuestionQuestionEqualsToken,
]);

/** The identifier an expression like `a.b[c].d` starts from, or undefined. */
function rootName(node: ts.Expression): string | undefined {
  let at: ts.Expression = node;
  while (ts.isPropertyAccessExpression(at) || ts.isElementAccessExpression(at) || ts.isNonNullExpression(at) || ts.isParenthesizedExpression(at)) at = at.expression;
  return ts.isIdentifier(at) ? at.text : undefined;
}

/** Whether `init` makes an object someone could write to (frozen objects and functions cannot be). */
function holdsMutable(init: ts.Expression | undefined): 'object' | 'regex' | undefined {
  if (!init) return undefined;
  let at = init;
  while (ts.isAsExpression(at) || ts.isSatisfiesExpression(at) || ts.isParenthesizedExpression(at)) at = at.expression;
  if (ts.isRegularExpressionLiteral(at)) return /\/[a-z]*[gy][a-z]*$/.test(at.text) ? 'regex' : undefined;
  if (ts.isCallExpression(at) && at.expression.getText() === 'Object.freeze') return undefined;
  if (ts.isNewExpression(at) || ts.isArrayLiteralExpression(at) || ts.isObjectLiteralExpression(at) || ts.isCallExpression(at)) return 'object';
  return undefined;
}

export interface ModuleState {
  file: string;
  name: string;
  why: string;
}

/** Module-level mutable state in `files` (path -> source). */
export function findModuleState(files: ReadonlyMap<string, string>): ModuleState[] {
  const found: ModuleState[] = [];
  const sources = [...files].map(([file, code]) => ({ file, source: ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true) }));
  for (const { file, source } of sources) found.push(...stateOf(file, source));
  return found;
}

function stateOf(file: string, source: ts.SourceFile): ModuleState[] {
  const found: ModuleState[] = [];
  const candidates = new Map<string, { kind: 'object' | 'regex' }>();
  {
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      const list = statement.declarationList;
      const isConst = (list.flags & ts.NodeFlags.Const) !== 0;
      for (const declaration of list.declarations) {
        const name = declaration.name.getText(source);
        if (!isConst) found.push({ file, name, why: 'a top-level let or var' });
        else {
          const kind = holdsMutable(declaration.initializer);
          if (kind) candidates.set(name, { kind });
        }
      }
    }
  }
  const flag = (name: string, why: string): void => {
    if (candidates.has(name) && !found.some((f) => f.name === name)) found.push({ file, name, why });
  };
  {
    const visit = (node: ts.Node): void => {
      if (ts.isBinaryExpression(node) && ASSIGNMENTS.has(node.operatorToken.kind) && !ts.isIdentifier(node.left)) {
        const name = rootName(node.left);
        if (name) flag(name, 'a top-level object that code assigns into');
      } else if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) && (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken) && !ts.isIdentifier(node.operand)) {
        const name = rootName(node.operand);
        if (name) flag(name, 'a top-level object that code increments');
      } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const method = node.expression.name.text;
        const name = rootName(node.expression.expression);
        if (name && MUTATORS.has(method)) flag(name, `a top-level object that code changes (.${method})`);
        if (name && REGEX_STATEFUL.has(method) && candidates.get(name)?.kind === 'regex') flag(name, 'a top-level regex with g or y, whose lastIndex moves');
        const options = node.arguments[1];
        if (name && method === 'decode' && options && /\bstream\s*:/.test(options.getText(source))) flag(name, 'a top-level decoder used with { stream: true }');
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
