// CUDA counterpart of waitflag.c: launch + cudaStreamSynchronize, default flags.
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>
#include <chrono>
__global__ void copy(const float*a,float*b,unsigned n){unsigned i=blockIdx.x*blockDim.x+threadIdx.x;if(i<n)b[i]=a[i];}
int main(int argc,char**argv){int R=argc>1?atoi(argv[1]):1001;
 float*a,*b;cudaMalloc(&a,4<<24);cudaMalloc(&b,4<<24);
 size_t sizes[]={1024,1<<16,1<<20,1<<22,1<<24};std::vector<double>t(R);
 for(size_t n:sizes){double m[3];for(int round=0;round<3;round++){for(int r=0;r<R;r++){auto t0=std::chrono::steady_clock::now();copy<<<(n+255)/256,256>>>(a,b,n);cudaStreamSynchronize(0);t[r]=std::chrono::duration<double,std::micro>(std::chrono::steady_clock::now()-t0).count();}
  std::sort(t.begin(),t.end());m[round]=t[R/2];}
  printf("cuda n=%-9zu launch+sync %.2f %.2f %.2f us\n",n,m[0],m[1],m[2]);}
 return 0;}
