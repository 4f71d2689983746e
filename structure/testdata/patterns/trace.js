// A node trace pasted into a comment is no code.
function isFormData(thing) {
  return thing && typeof thing.append === 'function';
}

const render = (a) => a.replace(/`|'/g, '');

module.exports = { isFormData, render };
