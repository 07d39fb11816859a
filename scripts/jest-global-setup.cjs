"use strict";
module.exports = () => require("./jest-containers.cjs").setup();
