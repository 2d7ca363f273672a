// Command etcd is the etcd server built from its published Go module, so tests get a current
// etcd without a binary download.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
