#!/usr/bin/env bash
# `simc --check` with the scene_check calling convention (FILE [--set K=V]...).
exec "${BIN:-bin}/simc" --check "$@"
