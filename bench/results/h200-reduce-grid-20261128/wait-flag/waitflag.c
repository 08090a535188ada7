/* Raw probe (session 31): what a blocking launch of a copy kernel costs to
 * wait for through NVIDIA's OpenCL, by wait. Modes, taken in turn within
 * each round, medians of R launches:
 *   0 enqueue copy + clFinish (what libclwarp's blocking calls do)
 *   1 enqueue copy + a one-item kernel writing seq to host-visible memory,
 *     clFlush, spin on that memory
 *   2 as 1, then clFinish
 *   3 the copy kernel's last work-group writes seq (a ticket), clFlush, spin
 *   4 as 3, then clFinish
 * Host-visible memory: a CL_MEM_ALLOC_HOST_PTR buffer mapped once; if the
 * flag never shows (200 ms), CL_MEM_USE_HOST_PTR on page-aligned memory. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
static const char*src=
"kernel void copy(global const float*a, global float*b, uint n){uint i=get_global_id(0); if(i<n) b[i]=a[i];}\n"
"kernel void signal(volatile global uint*flag, uint seq){*flag=seq;}\n"
"kernel void copy_flag(global const float*a, global float*b, uint n, volatile global uint*ticket, volatile global uint*flag, uint seq){\n"
" local uint last; uint i=get_global_id(0); if(i<n) b[i]=a[i];\n"
" barrier(CLK_GLOBAL_MEM_FENCE);\n"
" if(get_local_id(0)==0){ mem_fence(CLK_GLOBAL_MEM_FENCE); last = atomic_inc(ticket)==get_num_groups(0)-1; }\n"
" barrier(CLK_LOCAL_MEM_FENCE);\n"
" if(last && get_local_id(0)==0){ *ticket=0; mem_fence(CLK_GLOBAL_MEM_FENCE); *flag=seq; }\n"
"}\n";
static cl_command_queue q; static cl_kernel kc,ks,kf; static volatile cl_uint *hflag; static cl_uint seq;
static int spin(void){double t0=now(); while(*hflag!=seq){ if(now()-t0>200000) return -1; } return 0;}
int main(int argc,char**argv){
 int R=argc>1?atoi(argv[1]):1001;
 cl_platform_id p[8];cl_uint np;clGetPlatformIDs(8,p,&np);
 cl_device_id d=0;for(cl_uint i=0;i<np&&!d;i++){char nm[256];clGetPlatformInfo(p[i],CL_PLATFORM_NAME,256,nm,0);if(strstr(nm,"NVIDIA"))clGetDeviceIDs(p[i],CL_DEVICE_TYPE_GPU,1,&d,0);}
 if(!d&&getenv("WAITFLAG_ANY"))clGetDeviceIDs(p[0],CL_DEVICE_TYPE_ALL,1,&d,0);
 if(!d){fprintf(stderr,"no NVIDIA GPU\n");return 1;}
 cl_int e;cl_context c=clCreateContext(0,1,&d,0,0,&e);q=clCreateCommandQueue(c,d,0,&e);
 cl_program pr=clCreateProgramWithSource(c,1,&src,0,&e);
 if(clBuildProgram(pr,1,&d,"",0,0)){char log[8192];clGetProgramBuildInfo(pr,d,CL_PROGRAM_BUILD_LOG,sizeof log,log,0);fprintf(stderr,"%s\n",log);return 1;}
 kc=clCreateKernel(pr,"copy",&e);ks=clCreateKernel(pr,"signal",&e);kf=clCreateKernel(pr,"copy_flag",&e);
 size_t N=1<<24;cl_mem a=clCreateBuffer(c,0,N*4,0,&e),b=clCreateBuffer(c,0,N*4,0,&e);
 cl_uint zero=0; cl_mem ticket=clCreateBuffer(c,CL_MEM_COPY_HOST_PTR,4,&zero,&e);
 const char *how="ALLOC_HOST_PTR";
 cl_mem flag=clCreateBuffer(c,CL_MEM_ALLOC_HOST_PTR,4096,0,&e);
 hflag=clEnqueueMapBuffer(q,flag,CL_TRUE,CL_MAP_READ|CL_MAP_WRITE,0,4096,0,0,0,&e);
 *hflag=0;
 clSetKernelArg(ks,0,sizeof flag,&flag);
 seq=1;clSetKernelArg(ks,1,4,&seq);size_t one=1;clEnqueueNDRangeKernel(q,ks,1,0,&one,0,0,0,0);clFlush(q);
 if(spin()){
  clFinish(q); printf("ALLOC_HOST_PTR: the flag never showed (value %u after clFinish)\n",*hflag);
  void *mem=aligned_alloc(4096,4096); memset(mem,0,4096);
  flag=clCreateBuffer(c,CL_MEM_USE_HOST_PTR,4096,mem,&e); hflag=mem; how="USE_HOST_PTR";
  clSetKernelArg(ks,0,sizeof flag,&flag); clEnqueueNDRangeKernel(q,ks,1,0,&one,0,0,0,0);clFlush(q);
  if(spin()){clFinish(q);printf("USE_HOST_PTR: the flag never showed either (value %u after clFinish)\n",*hflag);return 2;}
 }
 clFinish(q);
 printf("host-visible flag: %s\n",how);
 clSetKernelArg(kc,0,sizeof a,&a);clSetKernelArg(kc,1,sizeof b,&b);
 clSetKernelArg(kf,0,sizeof a,&a);clSetKernelArg(kf,1,sizeof b,&b);clSetKernelArg(kf,3,sizeof ticket,&ticket);clSetKernelArg(kf,4,sizeof flag,&flag);
 const char*names[]={"enqueue+clFinish","+signal kernel, spin on flag","+signal kernel, spin, clFinish","last group's flag, spin","last group's flag, spin, clFinish"};
 size_t sizes[]={1024,1<<16,1<<20,1<<22,1<<24};
 double*t=malloc(sizeof(double)*R*5); int fails=0;
 for(int si=0;si<5;si++){size_t n=sizes[si];cl_uint nn=n;clSetKernelArg(kc,2,4,&nn);clSetKernelArg(kf,2,4,&nn);size_t g=(n+255)/256*256,l=256;
  double med[5][3];
  for(int round=0;round<3;round++){
   for(int r=0;r<R;r++) for(int f=0;f<5;f++){double t0=now();
    if(f==0){clEnqueueNDRangeKernel(q,kc,1,0,&g,&l,0,0,0);clFinish(q);}
    else if(f<=2){seq++;clSetKernelArg(ks,1,4,&seq);clEnqueueNDRangeKernel(q,kc,1,0,&g,&l,0,0,0);clEnqueueNDRangeKernel(q,ks,1,0,&one,0,0,0,0);clFlush(q);fails+=spin()!=0;if(f==2)clFinish(q);}
    else{seq++;clSetKernelArg(kf,5,4,&seq);clEnqueueNDRangeKernel(q,kf,1,0,&g,&l,0,0,0);clFlush(q);fails+=spin()!=0;if(f==4)clFinish(q);}
    t[f*R+r]=now()-t0;}
   clFinish(q);
   for(int f=0;f<5;f++){qsort(t+f*R,R,sizeof(double),cmp);med[f][round]=t[f*R+R/2];}}
  for(int f=0;f<5;f++)printf("n=%-9zu %-34s %.2f %.2f %.2f us\n",n,names[f],med[f][0],med[f][1],med[f][2]);
 }
 /* The copy's result after flag waits: every element. */
 float*h=malloc(N*4),*o=malloc(N*4);for(size_t i=0;i<N;i++)h[i]=(float)i*0.5f;
 clEnqueueWriteBuffer(q,a,CL_TRUE,0,N*4,h,0,0,0);cl_uint nn=N;clSetKernelArg(kf,2,4,&nn);size_t g=N,l=256;
 seq++;clSetKernelArg(kf,5,4,&seq);clEnqueueNDRangeKernel(q,kf,1,0,&g,&l,0,0,0);clFlush(q);fails+=spin()!=0;
 clEnqueueReadBuffer(q,b,CL_TRUE,0,N*4,o,0,0,0);printf("copy after the flag: %s; flag timeouts: %d\n",memcmp(h,o,N*4)?"WRONG":"right",fails);
 return 0;}
