#!/bin/bash
source ./lib/common.sh
. "./lib/env.sh"

build() {
  echo "building"
  make all
}

function deploy {
  build
  rsync -a dist/ host:/srv
}

deploy
