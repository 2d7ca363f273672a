module keyward.dev/tools/pause

go 1.24
