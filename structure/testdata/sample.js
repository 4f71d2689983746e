const path = require('path');
const { helper } = require("./helper");

class Widget {
  constructor(el) {
    this.el = el;
  }

  render() {
    return helper(this.el);
  }
}

function* ids() {
  yield 1;
}

module.exports.make = function (el) {
  return new Widget(el);
};
