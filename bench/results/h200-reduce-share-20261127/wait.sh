source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
gcc -O2 .device/exp/waitprobe.c -o /tmp/wp -lOpenCL || exit 1
nvcc -O3 -arch=sm_90 .device/exp/waitprobe.cu -o /tmp/wpc || exit 1
/tmp/wp 2001
for f in 0 1 2 3; do /tmp/wpc 2001 $f; done
/tmp/wp 2001
